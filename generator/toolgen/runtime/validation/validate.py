# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Validate a model's arguments; on failure, repair what may be repaired or explain what is wrong.

The valid path is one pydantic-core call (the model's own validator, without the
`model_validate` wrapper): no suggestion work, no exception machinery. Everything
else (repairs, paths, suggestions, messages) runs only once validation has failed.

Bounded work, whatever arrives (`Limits`): JSON text is measured before it is parsed; a
dict or list is walked (payload.measure, stopping at the first limit passed) before
pydantic-core sees it, unless it is flat (a few scalar values: payload.flat), in which case
it is measured once validation has failed. Of pydantic's errors, at most
`Limits.max_errors` are read per round (the first, in the order the arguments were sent),
the rest only counted, and issues are cut to `Limits.max_issues` once ordered.

Who made the mistake decides what is raised: anything a model sends gives
ToolArgumentsError (its message is for the model), a key sent twice in one object of JSON
text included (payload.duplicate_key: a reader keeping the last value would hide the first);
a tool name that is not a string is an unknown tool (a model may send one); a host's own
mistake (`injected` values that are not a mapping) raises TypeError at once, at the call's
boundary, and never becomes a model-facing failure.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, RootModel, ValidationError
from pydantic_core import from_json

from ..errors import ArgumentIssue, ToolArgumentsError
from ..models import Exact
from ..secrets import _extra_values, holds_secret, holds_secret_field
from . import bounds, coerce, deprecation, payload
from .coerce import Coercion
from .deprecation import OnWarning
from .payload import LIMITS, Limits
from .shape import Node
from .translate import Hit, Location, issues, resolve

__all__ = ["LIMITS", "Coercion", "Limits", "OnWarning", "as_sent", "closest_example", "validate"]

M = TypeVar("M", bound=BaseModel)
OnCoerce = Callable[[Coercion], None]
# The logger's name is public (docs/errors.md): `<package>._runtime.validation`, this group.
_log = logging.getLogger(__name__.rpartition(".")[0])
_ROUNDS = 3  # repairs can uncover more (a JSON string's content): a few rounds, never a loop
MAX_EXAMPLE_CHARS = 500  # an example longer than this as one line of JSON is not quoted
# The argument keys of each class met whose values may hold an x-secret, computed once.
_SECRET_KEYS: dict[type[BaseModel], frozenset[str] | None] = {}
_MAX_READ = 100_000  # sent text longer than this is not read to choose an example
_ONE_LINE = json.JSONEncoder(ensure_ascii=False)  # made once: json.dumps makes one per call


def validate(
    model: type[M],
    tool: str,
    arguments: Any,
    secrets: frozenset[str] = frozenset(),
    *,
    limits: Limits = LIMITS,
    on_coerce: OnCoerce | None = None,
    on_warning: OnWarning | None = None,
) -> M:
    """The validated Arguments model, or ToolArgumentsError. Never raises anything else.

    `arguments` is a dict, or JSON text (a model's raw output: limits apply to it).
    Repairs (null for an optional key, declared coercions) go to `on_coerce`, or are
    logged at INFO on this module's logger. A renamed parameter sent by its old name
    (`__renames__`, before its sunset) is taken as its new name, and the warning for the
    host goes to `on_warning`, or is logged at WARNING (deprecation.py). A class with an
    exact check (`__exact__`, for what it cannot express) has the check run on what it
    accepted.
    """
    value = _validate(model, tool, arguments, secrets, limits, on_coerce, on_warning)
    check: Exact | None = getattr(model, "__exact__", None)
    if check is None:
        return value
    data = as_sent(value)
    if check.is_valid(data):
        return value
    try:
        found = check.issues(data, limits.max_issues)
    except Exception:  # noqa: BLE001 - a bug in explaining must not become the host's crash
        found = [ArgumentIssue("", "invalid", "arguments are not valid")]
    raise ToolArgumentsError(tool, found[: limits.max_issues], total=max(len(found), 1))


def as_sent(value: Any) -> Any:
    """A validated model as the JSON value it was read from: declared keys that were sent (by
    wire name; `null` for an optional key counts as not sent, as the repair says), undeclared
    keys kept, the same for the models inside. Keys come in the order the class declares
    them, then the undeclared ones as they came: the same text for the same call in every
    process (`model_fields_set` is a set, whose order changes with the hash seed)."""
    if isinstance(value, RootModel):
        return as_sent(value.root)
    if isinstance(value, BaseModel):
        sent = value.model_fields_set
        out: dict[str, Any] = {}
        for name, field in type(value).model_fields.items():
            if name not in sent:
                continue
            item = getattr(value, name)
            if item is None and not field.is_required() and field.annotation is not Any:
                continue  # an optional key's null, read as absent (an `Any` key takes null as a value)
            wire = field.serialization_alias if field.serialization_alias is not None else name
            out[wire] = as_sent(item)
        for key, item in (value.__pydantic_extra__ or {}).items():
            out[key] = as_sent(item)
        return out
    if isinstance(value, (list, tuple)):
        return [as_sent(item) for item in value]
    if isinstance(value, dict):
        return {key: as_sent(item) for key, item in value.items()}
    return value


def _validate(
    model: type[M],
    tool: str,
    arguments: Any,
    secrets: frozenset[str],
    limits: Limits,
    on_coerce: OnCoerce | None,
    on_warning: OnWarning | None = None,
) -> M:
    validator = model.__pydantic_validator__
    kind = type(arguments)
    try:
        # What is read at once, measured only if refused (_recover): a flat dict, or a dict
        # for a class that bounds its depth and the values pydantic-core visits in it
        # (bounds.visits: the lengths of its unbounded arrays looked at, not a walk); text
        # for a class that bounds what it accepts (payload.shallow: it refuses text too deep,
        # and NaN or Infinity, on its own).
        if kind is dict and (payload.flat(arguments) or bounds.bounded(model, arguments, limits)):
            return validator.validate_python(arguments)  # type: ignore[no-any-return]
        if (
            kind is str
            and len(arguments) <= limits.max_bytes
            and bounds.shallow_within(model, limits)
        ):
            return _once(tool, arguments, validator.validate_json(arguments))  # type: ignore[no-any-return]
        return _measured(validator, tool, arguments, limits)  # type: ignore[no-any-return]
    except ValidationError as exc:
        # No cycle through this frame: nothing for the GC to chase.
        failure = exc.with_traceback(None)
    except ToolArgumentsError:
        raise
    except Exception:  # noqa: BLE001 - nothing a model sends may crash the host
        raise ToolArgumentsError(
            tool, [ArgumentIssue("", "invalid", "arguments could not be read")]
        ) from None
    try:
        outcome = _recover(model, tool, arguments, failure, secrets, limits, on_coerce, on_warning)
    except ToolArgumentsError:
        raise
    except Exception:  # noqa: BLE001 - a bug in explaining must not become the host's crash
        outcome = ToolArgumentsError(
            tool, [ArgumentIssue("", "invalid", "arguments are not valid")]
        )
    if isinstance(outcome, ToolArgumentsError):
        raise outcome  # raised once, here: a short traceback
    return outcome


def _measured(validator: Any, tool: str, arguments: Any, limits: Limits) -> Any:
    """Anything else, measured before pydantic-core reads it (ToolArgumentsError if too large)."""
    if isinstance(arguments, (str, bytes, bytearray)):
        problem = payload.check(arguments, limits) or payload.not_json_numbers(arguments)
        if problem is None:
            return _once(tool, arguments, validator.validate_json(arguments))
    else:
        data = {} if arguments is None else arguments
        problem = payload.measure(data, limits) if isinstance(data, (dict, list, tuple)) else None
        if problem is None:
            return validator.validate_python(data)
    raise ToolArgumentsError(tool, [problem])


def _once(tool: str, text: str | bytes | bytearray, value: Any) -> Any:
    """`value`, validated from `text`, unless an object of the text holds a key twice (the
    validator kept the last value: the first is hidden from whoever reads the text)."""
    problem = payload.duplicate_key(text)
    if problem is None:
        return value
    raise ToolArgumentsError(tool, [problem])


def _recover(
    model: type[M],
    tool: str,
    arguments: Any,
    exc: ValidationError,
    secrets: frozenset[str],
    limits: Limits,
    on_coerce: OnCoerce | None,
    on_warning: OnWarning | None,
) -> M | ToolArgumentsError:
    """The arguments, repaired where allowed; else the error with its issues (returned, not raised)."""
    text = arguments if isinstance(arguments, (str, bytes, bytearray)) else None
    data = arguments  # what was sent, as JSON values (text read once, below)
    # What was read at once (a flat dict, text for a shallow class) is measured before any
    # error is read.
    if type(arguments) is dict:
        problem = payload.measure(arguments, limits)
        if problem is not None:
            return ToolArgumentsError(tool, [problem])
    elif text is not None:
        problem = payload.check(text, limits) or payload.not_json_numbers(text)
        if problem is None:
            data = payload.read(text)
            problem = payload.duplicate_key(text, data)
        if problem is not None:
            return ToolArgumentsError(tool, [problem])
    count = exc.error_count()
    if count > limits.max_errors and data is not payload.UNREADABLE:  # (bad JSON: one error)
        errors = bounds.first_errors(model, exc, data, limits)
    else:
        errors = bounds.first(exc, limits)
    if text is not None and errors and errors[0]["type"] == "json_invalid":
        if payload.blank(text):  # no arguments at all
            return _validate(model, tool, {}, secrets, limits, on_coerce, on_warning)
        return ToolArgumentsError(tool, [payload.json_issue(str(errors[0]["msg"]), text)])
    if any(
        str(e["type"]).startswith("recursion") for e in errors
    ):  # deeper than pydantic-core goes
        return ToolArgumentsError(
            tool,
            [ArgumentIssue("", "limit", "nested too deeply", suggestion="flatten the structure")],
        )
    if data is payload.UNREADABLE:  # text pydantic-core cannot read (not UTF-8, lone surrogates)
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
        return _validate(model, tool, {}, secrets, limits, on_coerce, on_warning)
    if not isinstance(data, dict) and count == 1 and not errors[0]["loc"]:
        return ToolArgumentsError(tool, [payload.not_an_object(data)])
    # Old names of renamed parameters: taken as the new ones (warned), or refused by name.
    refused: list[ArgumentIssue] = []
    notes: list[str] = []
    renames: tuple[deprecation.Rename, ...] = getattr(model, "__renames__", ())
    if renames and isinstance(data, dict) and any(r.old in data for r in renames):
        data, refused, notes = deprecation.renamed(tool, data, renames)
        try:
            renamed: M = model.__pydantic_validator__.validate_python(data)
        except ValidationError as again:
            count = again.error_count()
            errors = bounds.first_errors(model, again.with_traceback(None), data, limits)
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
            result: M = model.__pydantic_validator__.validate_python(data)
        except ValidationError as again:
            count = again.error_count()
            errors = bounds.first_errors(model, again.with_traceback(None), data, limits)
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


def closest_example(
    model: type[BaseModel],
    examples: Sequence[dict[str, Any]],
    sent: Any,
    secrets: frozenset[str] = frozenset(),
) -> str | None:
    """The spec's example of a valid call closest to what was sent (`sent`: the arguments as
    a dict or JSON text, valid or not), as one line of JSON; None when no example may be
    quoted. Closest: the most keys sent with a value of the same JSON type, then the most keys
    sent, then the first in the spec's order. An example holding a value where an `x-secret`
    may be (any key whose schema holds one, any key of `secrets`, the injected names the host
    holds secret) is never quoted, nor one longer than MAX_EXAMPLE_CHARS. Cheap: a refused call
    only, a few examples, what was sent read at most once."""
    if model in _SECRET_KEYS:
        keys = _SECRET_KEYS[model]
    else:
        keys = _SECRET_KEYS[model] = _secret_keys(model)
    if keys is None:
        return None
    hidden = keys | secrets if secrets else keys
    data = _sent(sent)
    kinds = {key: _KINDS.get(type(value)) for key, value in data.items()}
    scored = []
    for i, example in enumerate(examples):
        if type(example) is dict and hidden.isdisjoint(example):
            shared = [key for key in example if key in kinds]
            same = sum(_KINDS.get(type(example[key])) == kinds[key] for key in shared)
            scored.append((-same, -len(shared), i))
    for *_, i in sorted(scored):
        line = _ONE_LINE.encode(examples[i])  # JSON escapes line breaks inside strings
        if len(line) <= MAX_EXAMPLE_CHARS:
            return line
    return None


def _secret_keys(model: type[BaseModel]) -> frozenset[str] | None:
    """The keys of the arguments whose value holds an `x-secret` position (at any depth), by
    the name a call sends; None when an undeclared key may hold one (any example may)."""
    keys = set()
    for name, field in model.model_fields.items():
        if holds_secret_field(field.annotation, field.metadata, set()):
            alias = field.validation_alias
            keys.add(alias if isinstance(alias, str) else field.alias or name)
    if model.model_config.get("extra") == "allow" and holds_secret(_extra_values(model)):
        return None
    return frozenset(keys)


def _sent(sent: Any) -> dict[str, Any]:
    """What was sent as a dict, when it was one (or JSON text of one, not too long to read)."""
    if isinstance(sent, (str, bytes, bytearray)) and len(sent) <= _MAX_READ:
        try:
            sent = from_json(sent)
        except ValueError:
            return {}
    return sent if isinstance(sent, dict) else {}


# A value's JSON type, by its Python type as JSON is read (an integer and a float are numbers).
_KINDS = {
    type(None): "null",
    bool: "boolean",
    int: "number",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
}
