# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What happens once a class refused a call's arguments: the declared repairs tried (an
optional key's null, `x-coerce`, a renamed parameter's old name), else the issues explained.

Runs only after validation failed (validate.py reads the valid path), and at a cost bounded
by the limits: what was read at once is measured first, at most `Limits.max_errors` of
pydantic's errors are read per round (bounds.py), and a value holding more values than that
is judged by the class's fail-fast twin (failfast.py) before the class reads it again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import ArgumentIssue, ToolArgumentsError
from . import bounds, coerce, deprecation, failfast, jsontext, payload
from .coerce import Coercion
from .deprecation import OnWarning
from .duplicates import duplicate_key
from .payload import Limits
from .shape import Node
from .translate import Hit, Location, issues, resolve

M = TypeVar("M", bound=BaseModel)
OnCoerce = Callable[[Coercion], None]
# The logger's name is public (docs/errors.md): `<package>._runtime.validation`, this group.
_log = logging.getLogger(__name__.rpartition(".")[0])
_ROUNDS = 3  # repairs can uncover more (a JSON string's content): a few rounds, never a loop
NOTHING_SENT = object()  # what `recover` gives for text that sends no arguments at all


def again(model: type[M], data: Any, limits: Limits, large: bool | None = None) -> M:
    """`data` (measured: within the limits) validated by the class, judged by its fail-fast
    twin first when it holds more than `max_errors` values (`large`, if known) and the class
    does not bound pydantic-core's pass over it (a flat dict, bounds)."""
    if large is None:
        large = not _bounded(model, data, limits) and (
            payload.measured(data, limits)[1] > limits.max_errors
        )
    if large:
        judge = failfast.twin(model)
        if judge is not None:
            judge.validate_python(data)
    return model.__pydantic_validator__.validate_python(data)  # type: ignore[no-any-return]


def _bounded(model: type[M], data: Any, limits: Limits) -> bool:
    return type(data) is dict and (payload.flat(data) or bounds.bounded(model, data, limits))


def _errors(
    model: type[M], exc: ValidationError, data: Any, limits: Limits
) -> tuple[list[Any], int]:
    """The first errors of a failure and their count, read at a cost bounded by the limits:
    from the first values of a large value (more errors than read, or judged fail-fast)."""
    if (
        exc.error_count() > limits.max_errors
        or exc.title == failfast.TITLE
        or not _bounded(model, data, limits)
    ):
        return bounds.first_errors(model, exc, data, limits)
    return bounds.first(exc, limits), exc.error_count()


def recover(
    model: type[M],
    tool: str,
    arguments: Any,
    exc: ValidationError,
    secrets: frozenset[str],
    limits: Limits,
    on_coerce: OnCoerce | None,
    on_warning: OnWarning | None,
) -> M | ToolArgumentsError | object:
    """The arguments, repaired where allowed; else the error with its issues (returned, not
    raised); NOTHING_SENT for text that sends no arguments at all (blank, or `null`), which
    the caller validates as `{}`."""
    text = arguments if isinstance(arguments, (str, bytes, bytearray)) else None
    data = arguments  # what was sent, as JSON values (text read once, below)
    # What was read at once (a flat dict, text for a shallow class) is measured before any
    # error is read.
    if type(arguments) is dict:
        problem = payload.measure(arguments, limits)
        if problem is not None:
            return ToolArgumentsError(tool, [problem])
    elif text is not None:
        problem = payload.check(text, limits) or jsontext.not_json_numbers(text)
        if problem is None:
            data = jsontext.read(text)
            problem = duplicate_key(text, data)
        if problem is not None:
            return ToolArgumentsError(tool, [problem])
    if data is jsontext.UNREADABLE:  # (bad JSON: one error)
        errors, count = bounds.first(exc, limits), exc.error_count()
    else:
        errors, count = _errors(model, exc, data, limits)
    if text is not None and errors and errors[0]["type"] == "json_invalid":
        if jsontext.blank(text):  # no arguments at all
            return NOTHING_SENT
        return ToolArgumentsError(tool, [jsontext.json_issue(str(errors[0]["msg"]), text)])
    if any(
        str(e["type"]).startswith("recursion") for e in errors
    ):  # deeper than pydantic-core goes
        return ToolArgumentsError(
            tool,
            [ArgumentIssue("", "limit", "nested too deeply", suggestion="flatten the structure")],
        )
    if data is jsontext.UNREADABLE:  # text pydantic-core cannot read (not UTF-8, lone surrogates)
        return ToolArgumentsError(
            tool,
            [
                ArgumentIssue(
                    "",
                    "json",
                    "invalid JSON: the text is not valid Unicode",
                    suggestion="send UTF-8 text",
                )
            ],
        )
    if data is None:  # `null` as text: no arguments at all
        return NOTHING_SENT
    if not isinstance(data, dict) and count == 1 and not errors[0]["loc"]:
        return ToolArgumentsError(tool, [jsontext.not_an_object(data)])
    # Old names of renamed parameters: taken as the new ones (warned), or refused by name.
    refused: list[ArgumentIssue] = []
    notes: list[str] = []
    renames: tuple[deprecation.Rename, ...] = getattr(model, "__renames__", ())
    if renames and isinstance(data, dict) and any(r.old in data for r in renames):
        data, refused, notes = deprecation.renamed(tool, data, renames)
        try:
            renamed: M = again(model, data, limits)
        except ValidationError as refusal:
            errors, count = _errors(model, refusal.with_traceback(None), data, limits)
        else:
            if refused:
                return ToolArgumentsError(tool, refused[: limits.max_issues], total=len(refused))
            for note in notes:
                deprecation.tell(note, on_warning)
            return renamed
    root = Node(model)
    made: list[Coercion] = []
    for _ in range(_ROUNDS):
        hits = _hits(root, errors, secrets)
        repairs = coerce.plan(root, hits)
        if not repairs:
            break
        data = coerce.apply(data, repairs)
        made += [report for _, _, report in repairs]
        try:
            result: M = again(model, data, limits)
        except ValidationError as refusal:
            errors, count = _errors(model, refusal.with_traceback(None), data, limits)
            continue
        if refused:
            return ToolArgumentsError(tool, refused[: limits.max_issues], total=len(refused))
        for report in made:
            _report(report, tool, on_coerce)
        for note in notes:
            deprecation.tell(note, on_warning)
        return result
    else:
        hits = _hits(root, errors, secrets)
    found, skipped = issues(hits, lambda location: _at(data, location), limits.max_issues)
    found = refused + found
    # Errors past the ones read count one issue each (past max_errors they are mostly one per
    # wrong value): `total` is exact below max_errors errors, close above.
    unread = count - len(errors)
    return ToolArgumentsError(tool, found[: limits.max_issues], total=len(found) + skipped + unread)


def _hits(root: Node, errors: list[Any], secrets: frozenset[str]) -> list[Hit]:
    hits: list[Hit] = []
    items = [(tuple(e["loc"]), e) for e in errors]
    # Top-level names the host holds secret (injected values a model may echo back as arguments).
    hidden = [item for item in items if item[0] and item[0][0] in secrets]
    plain = [item for item in items if not (item[0] and item[0][0] in secrets)] if hidden else items
    resolve(root, plain, (), False, hits)
    if hidden:
        resolve(root, hidden, (), True, hits)
    return hits


def _at(data: Any, location: Location) -> Any:
    for part in location:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def _report(report: Coercion, tool: str, on_coerce: OnCoerce | None) -> None:
    if on_coerce is not None:
        on_coerce(report)
    else:
        _log.info(
            "tool %s: %s coerced (%s): %s -> %s",
            tool,
            report.path or "arguments",
            report.kind,
            report.before,
            report.after,
        )
