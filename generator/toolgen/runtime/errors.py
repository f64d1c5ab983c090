# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Errors a host or a model can act on: data first, with a message written for a model."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from json.encoder import encode_basestring as _encode_string  # json.dumps(s, ensure_ascii=False)
from typing import Any

MAX_VALUE_CHARS = 60
MAX_LINE_CHARS = 300
MAX_PATH_CHARS = 120
MAX_LISTED = 12  # keys or values listed in one line


def preview(value: Any, limit: int = MAX_VALUE_CHARS) -> str:
    """A short, single-line JSON rendering of a value a model sent (bounded work at any size or depth)."""
    parts: list[str] = []
    _render(value, parts, limit + 1, 0)
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _render(value: Any, out: list[str], budget: int, depth: int) -> int:
    """Append JSON for `value` to `out`, stopping once `budget` characters are spent; returns what is left."""
    if budget <= 0:
        return budget
    if isinstance(value, str):
        text = _encode_string(value[:budget])
    elif value is None or isinstance(value, (bool, int, float)):
        try:
            text = json.dumps(value)
        except ValueError:  # an int too long to print
            text = "a very large number"
    elif isinstance(value, (list, tuple, dict)):
        is_dict = isinstance(value, dict)
        if depth >= 3 or not value:
            text = ("{…}" if is_dict else "[…]") if value else ("{}" if is_dict else "[]")
        else:
            out.append("{" if is_dict else "[")
            budget -= 1
            pairs: Any = value.items() if isinstance(value, dict) else enumerate(value)
            for i, (key, item) in enumerate(pairs):
                if budget <= 0:
                    return budget
                if i:
                    out.append(", ")
                    budget -= 2
                if is_dict:
                    budget = _render(str(key), out, budget, depth + 1)
                    out.append(": ")
                    budget -= 2
                budget = _render(item, out, budget, depth + 1)
            out.append("}" if is_dict else "]")
            return budget - 1
    else:
        text = type(value).__name__
    out.append(text)
    return budget - len(text)


MAX_NAME_CHARS = 64  # a tool name in a message (longer: a prefix, "…" and the length)
MAX_KEY_CHARS = 256  # a key in a path (declared keys may be long; a model's may be megabytes)


def short(name: str, limit: int = MAX_NAME_CHARS) -> str:
    """A name as a message shows it: whole when short, else its start, "…" and its length."""
    if len(name) <= limit:
        return name
    return f"{name[:limit]}… ({len(name)} characters)"


def quote(name: str) -> str:
    """A key or enum value as a model writes it: JSON, double quotes."""
    return _encode_string(name)


def listing(names: list[str], limit: int = MAX_LISTED) -> str:
    shown = ", ".join(quote(n) for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


@dataclass(frozen=True)
class ArgumentIssue:
    """One problem with one argument. `path` is like `items[2].sku`; `code` is stable (docs/errors.md)."""

    path: str
    code: str
    message: str
    value: str | None = None  # truncated; None for secrets and absent values
    expected: str | None = None
    suggestion: str | None = None
    location: tuple[str | int, ...] = field(default=(), compare=False)  # the exact path, for hosts

    @classmethod
    def at(
        cls,
        location: tuple[str | int, ...],
        code: str,
        message: str,
        value: str | None = None,
        expected: str | None = None,
        suggestion: str | None = None,
    ) -> ArgumentIssue:
        """An issue at `location`, its `path` written as messages write it (`shown_path`)."""
        return cls(shown_path(location), code, message, value, expected, suggestion, location)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "location": list(self.location),
            "code": self.code,
            "message": self.message,
        }
        for key in ("value", "expected", "suggestion"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    def line(self) -> str:
        where = shown_path(self.location) if self.location else (self.path or "arguments")
        if len(where) > MAX_PATH_CHARS:  # the end of a long path says where to look
            where = "…" + where[1 - MAX_PATH_CHARS :]
        text = f"- {where}: {self.message}"
        if self.suggestion:
            text = f"{text}; {self.suggestion}"
        # One line, whatever a spec's text holds.
        text = text.replace("\n", "\\n").replace("\r", "\\r")
        return text if len(text) <= MAX_LINE_CHARS else text[: MAX_LINE_CHARS - 1] + "…"


def shown_path(location: tuple[str | int, ...]) -> str:
    """A path for a message: `items[2].sku`; keys a dotted path would garble as `["a.b"]`."""
    out = ""
    for part in location:
        if isinstance(part, int):
            out += f"[{part}]"
        elif (
            part
            and len(part) <= MAX_KEY_CHARS
            and part.isprintable()
            and not any(c in part for c in ' .[]"')
        ):
            out += f".{part}" if out else part
        else:
            out += f"[{_encode_string(short(part, MAX_KEY_CHARS))}]"
    return out


def _order(issue: ArgumentIssue) -> tuple[Any, ...]:
    # Indexes in numeric order (items[2] before items[10]), keys by name, an object before its keys.
    return (
        tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in issue.location),
        issue.code,
    )


EXAMPLE_LEAD = "A valid call looks like: "


class ToolError(Exception):
    """The base of every exception toolgen raises on purpose: `except ToolError` catches each
    (refused arguments, an unknown tool, a failed call, a suspended call's bad record, ...);
    every other base a class had stays (UnknownToolError is a LookupError, ...).

    Raised by implementations, `ToolError(kind, message)` is a failure kind the spec declares
    under `errors`. `partial_data`: what the tool got done before it failed (JSON), sent to
    the model beside the message (ToolFailure.partial_data) so that it need not redo that part."""

    declared = True  # a kind an implementation raised; False: the runtime's own (ToolgenError)
    kind: str
    message: str

    def __init__(
        self,
        kind: str,
        message: str,
        details: dict[str, Any] | None = None,
        partial_data: Any = None,
    ) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind, self.message = kind, message
        self.details = {} if details is None else details
        self.partial_data = partial_data

    def __repr__(self) -> str:
        return f"{type(self).__name__}(kind={self.kind!r}, message={self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a worker process's result) as it is, whatever its class's __init__ takes.
        return _remade, (type(self), self.args), self.__dict__


def _remade(cls: type[ToolError], args: tuple[Any, ...]) -> ToolError:
    made = cls.__new__(cls, *args)
    made.args = args
    return made


class ToolgenError(ToolError):
    """What the runtime raises itself (never a kind a spec declares): its message is its own."""

    declared = False

    def __init__(self, *args: Any) -> None:
        Exception.__init__(self, *args)

    def __repr__(self) -> str:
        return Exception.__repr__(self)


class ToolArgumentsError(ToolgenError, ValueError):
    """Arguments that do not match the tool's schema; `str()` is the message for the model.

    `issues` holds every problem (up to the configured limit), ordered by path; `total`
    counts them all. `example`: the arguments of a valid call (the spec's example closest to
    what was sent, as one line of JSON) that the message ends with, or None (the registry
    adds it: `with_example`).
    """

    def __init__(
        self,
        tool: str,
        issues: list[ArgumentIssue],
        total: int | None = None,
        *,
        example: str | None = None,
    ) -> None:
        self.tool = tool
        self.issues = sorted(issues, key=_order) if len(issues) > 1 else list(issues)
        self.total = max(total or 0, len(self.issues))
        self.example = example
        super().__init__(self.render())

    def with_example(self, example: str) -> ToolArgumentsError:
        """The same error, its message ending with a valid call's arguments (`example`): the
        message is extended, not rendered again."""
        new = type(self).__new__(type(self))
        new.__dict__.update(vars(self))
        new.example = None
        text = str(self) if self.example is None else new.render()
        new.example = example
        new.args = (f"{text}\n{EXAMPLE_LEAD}{example}",)
        return new

    def render(self) -> str:
        count = f"{self.total} problem{'s' if self.total != 1 else ''}"
        lines = [
            f"Invalid arguments for tool '{self.tool}' ({count}):",
            *(issue.line() for issue in self.issues),
        ]
        if self.total > len(self.issues):
            lines.append(f"- … and {self.total - len(self.issues)} more")
        lines.append("Fix these and call the tool again.")
        if self.example is not None:
            lines.append(EXAMPLE_LEAD + self.example)
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tool": self.tool,
            "total": self.total,
            "issues": [issue.to_dict() for issue in self.issues],
        }
        if self.example is not None:
            out["example"] = self.example
        return out


class UnknownToolError(ToolgenError, KeyError):
    """A tool name no tool has (`name` holds it whole; the message shows at most its start),
    or a name that is not a string (null, a number, an array, an object: the message says which
    JSON type it is, never its value). A KeyError (a LookupError), as `registry[name]` raises."""

    def __init__(self, name: object, suggestion: str | None, available: int) -> None:
        self.name, self.suggestion = name, suggestion
        hint = f" Did you mean '{suggestion}'?" if suggestion else f" There are {available} tools."
        if isinstance(name, str):
            shown = short(name.replace("\n", "\\n").replace("\r", "\\r"))
            super().__init__(f"Unknown tool '{shown}'.{hint}")
        else:
            kind = _JSON_KINDS.get(type(name), type(name).__name__)
            super().__init__(f"Unknown tool: a tool's name is a string, not {kind}.{hint}")

    def __str__(self) -> str:
        return str(self.args[0])  # the message, not KeyError's repr of it


# What a value that is not a string is, as a model reads it (JSON's types).
_JSON_KINDS = {
    type(None): "null",
    bool: "true or false",
    int: "a number",
    float: "a number",
    list: "an array",
    tuple: "an array",
    dict: "an object",
}


class UnknownCategoryError(ToolgenError, ValueError):
    """A category no tool of the registry has (`name`; the message names the nearest)."""

    def __init__(self, name: str, known: list[str], suggestion: str | None) -> None:
        self.name, self.suggestion = name, suggestion
        hint = f"; did you mean {suggestion!r}?" if suggestion else ""
        super().__init__(
            f"no tool of category {name!r}{hint} (categories: {', '.join(known) or 'none'})"
        )


class ToolCallError(ToolgenError):
    """Raised by `Registry.invoke` when a call did not give a result: the `ToolFailure` the
    model would read (`kind`, `message`, `retryable`), the tool, and how many calls were made.
    The implementation's own exception, if any, is the `__cause__`. A generated client sets
    `partial_data` (what the tool got done before it failed) and `warnings` (for the host)."""

    partial_data: Any = None
    warnings: tuple[str, ...] = ()

    def __init__(self, tool: str, kind: str, message: str, retryable: bool, attempts: int) -> None:
        # The kind once: a declared kind's message may already start with it (ToolError's str).
        said = message if message.startswith(f"{kind}: ") else f"{kind}: {message}"
        super().__init__(f"{tool}: {said}")
        self.tool, self.kind, self.message = tool, kind, message
        self.retryable, self.attempts = retryable, attempts


class HostError(ToolgenError, TypeError):
    """The host's code called the runtime wrongly (not a model's call): fix the code."""


def injected_values(injected: object) -> None:
    """Injected values are a mapping (or None): anything else is the host's mistake, raised as
    HostError (a TypeError) at the call's boundary, before any call runs (no model can fix
    the host's code)."""
    if injected is not None and not isinstance(injected, Mapping):
        raise HostError(f"injected values are a mapping, not {type(injected).__name__}")


def tool_name(name: object, available: int) -> str:
    """`name`, checked: anything but a string names no tool (UnknownToolError, among
    `available` tools), as the model that sent `null` or an object as a call's name is told;
    never a TypeError from deeper down."""
    if not isinstance(name, str):
        raise UnknownToolError(name, None, available)
    return name
