# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Validate a model's arguments; on failure, repair what may be repaired or explain what is wrong.

The valid path is one pydantic-core call (the model's own validator, without the
`model_validate` wrapper): no suggestion work, no exception machinery. Everything
else (repairs, paths, suggestions, messages) runs only once validation has failed, in
failure.py; this module owns reading what arrives, and when it is measured.

Bounded work, whatever arrives (`Limits`): JSON text is measured before it is parsed; a
dict or list is walked (payload.measure, stopping at the first limit passed) before
pydantic-core sees it, unless it is flat (a few scalar values: payload.flat), in which case
it is measured once validation has failed. Of pydantic's errors, at most
`Limits.max_errors` are read per round (the first, in the order the arguments were sent),
the rest only counted, and issues are cut to `Limits.max_issues` once ordered.

Who made the mistake decides what is raised: anything a model sends gives
ToolArgumentsError (its message is for the model), a key sent twice in one object of JSON
text included (duplicates.py: a reader keeping the last value would hide the first);
a tool name that is not a string is an unknown tool (a model may send one); a host's own
mistake (`injected` values that are not a mapping) raises TypeError at once, at the call's
boundary, and never becomes a model-facing failure.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

from pydantic import BaseModel, RootModel, ValidationError

from ..errors import ArgumentIssue, ToolArgumentsError
from ..models import Exact
from . import bounds, capped, failfast, jsontext, payload
from .coerce import Coercion
from .deprecation import OnWarning
from .duplicates import closed_count, counter, duplicate_key, inside, sent_once
from .examples import closest_example
from .failure import NOTHING_SENT, OnCoerce, again, recover
from .payload import LIMITS, Limits

__all__ = [
    "LIMITS",
    "Coercion",
    "Limits",
    "OnCoerce",
    "OnWarning",
    "as_sent",
    "closest_example",
    "validate",
]

M = TypeVar("M", bound=BaseModel)


class _Ready(NamedTuple):
    """How a class's arguments are read at once under the default limits (`_ready`)."""

    dicts: Any  # its reader of dicts: its pydantic-core validator, or the capped one
    text: Any  # its reader of JSON text
    count: Any  # what a dict makes the reader visit (None: within bounds.budget whatever it is)
    members: Any  # the count of the members of what it read (None: counted inline)
    fits: Any  # whether a dict the capped reader refused is the class's refusal (None: no cap)


# Of each class met: how a dict for it is read at once under the default limits (`_ready`).
_READY: dict[type[BaseModel], Any] = {}  # (_Ready or None; Any: read against False)
_BUDGET = bounds.budget(LIMITS)
_MOST = LIMITS.max_errors  # text at most this long holds fewer values: errors bounded
_UNREADABLE = ArgumentIssue("", "invalid", "arguments could not be read")


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
    logged at INFO on this group's logger. A renamed parameter sent by its old name
    (`__renames__`, before its sunset) is taken as its new name, and the warning for the
    host goes to `on_warning`, or is logged at WARNING (deprecation.py). A class with an
    exact check (`__exact__`, for what it cannot express) has the check run on what it
    accepted.
    """
    ready = _READY.get(model, False) if limits is LIMITS else None
    if ready is False:
        ready = _READY[model] = _ready(model)
    if ready is not None:  # the valid path of most calls: one pydantic-core call
        dicts, text, count, members, fits = ready  # (one unpacking: cheaper than attributes)
        kind = type(arguments)
        if kind is dict:  # (its own keys counted too: each unknown one is an error)
            small = len(arguments) <= _BUDGET and (count is None or count(arguments) <= _BUDGET)
            read = dicts if small else None
        elif kind is str and (
            len(arguments) <= _MOST
            or len(arguments) <= LIMITS.max_bytes
            and not failfast.needed(arguments, LIMITS)
        ):
            read = text  # (text with more values than max_errors: judged first, below)
        else:
            read = None
        if read is not None:
            try:
                value = read(arguments)
            except ValidationError as exc:
                failure = exc.with_traceback(None)  # no cycle through this frame for the GC
            except Exception:  # noqa: BLE001 - nothing a model sends may crash the host
                raise ToolArgumentsError(tool, [_UNREADABLE]) from None
            else:
                if kind is dict:
                    return value  # type: ignore[no-any-return]
                found = len(value.__pydantic_fields_set__) if members is None else members(value)
                extra = arguments.count(":") - found  # (colons inside strings, or a key twice)
                if not extra or len(inside(arguments)) == extra:  # (duplicates.cleared)
                    return value  # type: ignore[no-any-return]
                return _once(tool, arguments, value)  # type: ignore[no-any-return]
            if kind is not dict or fits is None or fits(arguments):
                return _failed(
                    model, tool, arguments, failure, secrets, limits, on_coerce, on_warning
                )
            # (refused by the capped reader maybe only for an array past its cap: read as
            # before, below)
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


def _ready(model: type[BaseModel]) -> _Ready | None:
    """How a class's arguments are read at once, for a class whose arguments may be (no exact
    check after it; bounds.at_once): the count from bounds.at_once, or none where the capped
    reader (capped.reader) bounds the pass itself; the member count of duplicates.counter.
    Else None."""
    found = None if getattr(model, "__exact__", None) else bounds.at_once(model, LIMITS)
    if found is None or not callable(found) and found > _BUDGET:
        return None
    validator = model.__pydantic_validator__
    count = found if callable(found) else None
    cap = None if count is None else capped.reader(model, _BUDGET)
    members = counter(model)  # (a closed class with no object inside: counted inline, None)
    return _Ready(
        validator.validate_python if cap is None else cap[0],
        validator.validate_json,
        count if cap is None else None,
        None if members is closed_count else members,
        None if cap is None else cap[1],
    )


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
        # What is read at once, measured only if refused (failure.recover): a flat dict, or a dict
        # for a class that bounds its depth and the values pydantic-core visits in it
        # (bounds.visits: the lengths of its unbounded arrays looked at, not a walk); text
        # for a class that bounds what it accepts (nesting.shallow: it refuses text too deep,
        # and NaN or Infinity, on its own).
        if kind is dict and (payload.flat(arguments) or bounds.bounded(model, arguments, limits)):
            return validator.validate_python(arguments)  # type: ignore[no-any-return]
        if (
            kind is str
            and len(arguments) <= limits.max_bytes
            and bounds.shallow_within(model, limits)
            and not failfast.needed(arguments, limits)
        ):
            return _once(tool, arguments, validator.validate_json(arguments))  # type: ignore[no-any-return]
        return _measured(model, tool, arguments, limits)
    except ValidationError as exc:
        # No cycle through this frame: nothing for the GC to chase.
        failure = exc.with_traceback(None)
    except ToolArgumentsError:
        raise
    except Exception:  # noqa: BLE001 - nothing a model sends may crash the host
        raise ToolArgumentsError(tool, [_UNREADABLE]) from None
    return _failed(model, tool, arguments, failure, secrets, limits, on_coerce, on_warning)


def _failed(
    model: type[M],
    tool: str,
    arguments: Any,
    failure: ValidationError,
    secrets: frozenset[str],
    limits: Limits,
    on_coerce: OnCoerce | None,
    on_warning: OnWarning | None,
) -> M:
    """The arguments repaired, or ToolArgumentsError raised, once validation failed."""
    try:
        outcome = recover(model, tool, arguments, failure, secrets, limits, on_coerce, on_warning)
    except ToolArgumentsError:
        raise
    except Exception:  # noqa: BLE001 - a bug in explaining must not become the host's crash
        outcome = ToolArgumentsError(
            tool, [ArgumentIssue("", "invalid", "arguments are not valid")]
        )
    if outcome is NOTHING_SENT:  # blank text, or `null`: no arguments at all
        return _validate(model, tool, {}, secrets, limits, on_coerce, on_warning)
    if isinstance(outcome, ToolArgumentsError):
        raise outcome  # raised once, here: a short traceback
    return outcome  # type: ignore[return-value]


def _measured(model: type[M], tool: str, arguments: Any, limits: Limits) -> M:
    """Anything else, measured before pydantic-core reads it (ToolArgumentsError if too large),
    and judged by the class's fail-fast twin first where its own failing pass could keep
    more than `max_errors` errors (failfast.py)."""
    if isinstance(arguments, (str, bytes, bytearray)):
        problem = payload.check(arguments, limits) or jsontext.not_json_numbers(arguments)
        if problem is None:
            if failfast.needed(arguments, limits):
                judge = failfast.twin(model)
                if judge is not None:
                    judge.validate_json(arguments)
            value = model.__pydantic_validator__.validate_json(arguments)
            return _once(tool, arguments, value)  # type: ignore[no-any-return]
    else:
        data = {} if arguments is None else arguments
        problem, values = None, 0
        if isinstance(data, (dict, list, tuple)):
            problem, values = payload.measured(data, limits)
        if problem is None:
            return again(model, data, limits, values > limits.max_errors)
    raise ToolArgumentsError(tool, [problem])


def _once(tool: str, text: str | bytes | bytearray, value: Any) -> Any:
    """`value`, validated from `text`, unless an object of the text holds a key twice (the
    validator kept the last value: the first is hidden from whoever reads the text). The
    typical call is known without reading it again (duplicates.sent_once)."""
    if type(text) is str and sent_once(text, value):
        return value
    problem = duplicate_key(text)
    if problem is None:
        return value
    raise ToolArgumentsError(tool, [problem])
