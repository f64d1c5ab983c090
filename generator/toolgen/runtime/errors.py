"""Errors a host or a model can act on: data first, with a message written for a model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_VALUE_CHARS = 60
MAX_MESSAGE_LINES = 12


def truncate(value: Any, limit: int = MAX_VALUE_CHARS) -> str:
    """A short, single-line rendering of a value a model sent."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class ArgumentIssue:
    """One problem with one argument. `path` is like `items[2].sku`; `code` is stable."""

    path: str
    code: str
    message: str
    value: str | None = None  # truncated; None for secrets and absent values
    expected: str | None = None
    suggestion: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "code": self.code, "message": self.message}
        for key in ("value", "expected", "suggestion"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    def line(self) -> str:
        where = self.path or "arguments"
        text = f"- {where}: {self.message}"
        return f"{text}; {self.suggestion}" if self.suggestion else text


class ToolArgumentsError(ValueError):
    """Arguments that do not match the tool's schema; `str()` is the message for the model."""

    def __init__(self, tool: str, issues: list[ArgumentIssue]) -> None:
        self.tool = tool
        self.issues = sorted(issues, key=lambda i: (i.path, i.code))
        super().__init__(self.render())

    def render(self) -> str:
        shown = self.issues[:MAX_MESSAGE_LINES]
        head = f"Invalid arguments for tool '{self.tool}' ({len(self.issues)} problem{'s' if len(self.issues) != 1 else ''}):"
        lines = [head, *(issue.line() for issue in shown)]
        if len(self.issues) > len(shown):
            lines.append(f"- … and {len(self.issues) - len(shown)} more")
        lines.append("Fix these and call the tool again.")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "issues": [issue.to_dict() for issue in self.issues]}


class UnknownToolError(LookupError):
    def __init__(self, name: str, suggestion: str | None, available: int) -> None:
        self.name, self.suggestion = name, suggestion
        hint = f" Did you mean '{suggestion}'?" if suggestion else f" There are {available} tools."
        super().__init__(f"Unknown tool '{name}'.{hint}")


@dataclass
class ToolError(Exception):
    """Raised by implementations for a failure kind the spec declares under `errors`."""

    kind: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(f"{self.kind}: {self.message}")

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"
