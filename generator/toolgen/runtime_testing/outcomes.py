# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What the judge reads of a call's outcome: secret values and their masks, a run bounded in
time, a stream closed, events and content checked, a result as plain JSON, schema errors, how
each is shown in a violation (`short`), and `Outcome`, one call's judged outcome.
"""

from __future__ import annotations

import inspect
import json
import math
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from ._link import (
    REDACTED,
    Node,
    block_kind,
    is_json_type,
    json_equal,
)
from .judge import json_schema_validator

_SHOWN_CHARS = 400  # a result or a schema error in a message
_SHOWN_ERRORS = 5  # schema errors listed for one result


def _secret_node(node: Node | None) -> bool:
    """A position whose whole value is secret: marked, unknown (None: injected values), or a
    union or `Any` holding a secret (its structure cannot be followed)."""
    return node is None or node.secret or (node.kind in ("union", "any") and node.hides)


def secrets_in(value: Any, node: Node | None, out: set[str], depth: int) -> None:
    """The secret values in raw arguments, walked along the model's structure, in the forms
    text shows them: as they are, JSON-escaped and repr-escaped (hypothesis prints reprs)."""
    if depth > 100:
        return
    if _secret_node(node) and not isinstance(value, (dict, list)):
        if value is not None and not isinstance(value, bool):
            text = value if isinstance(value, str) else json.dumps(value)
            out.update((text, json.dumps(text)[1:-1], repr(text)[1:-1]))
        return
    whole = _secret_node(node)
    if isinstance(value, dict):
        for key, item in value.items():
            child = None if whole or node is None else node.child(key)
            if whole or child is not None:
                secrets_in(item, child, out, depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            child = None if whole or node is None else node.child(index)
            if whole or child is not None:
                secrets_in(item, child, out, depth + 1)


def mask(value: Any, node: Node | None, depth: int) -> Any:
    """Raw arguments with every secret position's value replaced by REDACTED."""
    if node is None or depth > 100:
        return value
    if _secret_node(node):
        return REDACTED
    if isinstance(value, dict):
        return {key: mask(item, node.child(key), depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [mask(item, node.child(i), depth + 1) for i, item in enumerate(value)]
    return value


async def awaited(awaitable: Any) -> Any:
    return await awaitable


def completed(function: Callable[..., Any], args: tuple[Any, ...], limit: float) -> Any:
    """In the kit's thread: `function(*args)`, and what it returns awaited (cancelled at `limit`
    seconds, so a hung coroutine's cleanup runs and its loop closes)."""
    outcome = function(*args)
    if not inspect.isawaitable(outcome):
        return outcome
    import asyncio

    async def bounded() -> Any:
        return await asyncio.wait_for(awaited(outcome), limit)

    return asyncio.run(bounded())


def closed(stream: Any) -> str | None:
    """Take a stream's first item, then close it: what went wrong in closing, else None (a
    result that is no stream, or a stream that fails before its first item, is not judged)."""
    import asyncio

    async def cut_async() -> None:
        try:
            await stream.__anext__()
        except BaseException:  # noqa: BLE001 - its first step's outcome is test_results' business
            return
        await stream.aclose()

    try:
        if inspect.isasyncgen(stream):
            asyncio.run(cut_async())
        elif inspect.isgenerator(stream):
            try:
                next(stream)
            except BaseException:  # noqa: BLE001 - as above
                return None
            stream.close()
    except Exception as exc:  # noqa: BLE001 - this is the finding
        return f"closing raised {type(exc).__name__}: {exc}"
    return None


def event_problem(event: Any, content: frozenset[str]) -> str | None:
    """What is wrong with one event of a stream, else None."""
    kind = getattr(event, "kind", None)
    if kind == "progress":
        done, total = event.done, event.total
        if not _number(done) or done < 0:
            return f"Progress.done is {done!r}: a number, 0 or more"
        if total is not None and (not _number(total) or total < done):
            return f"Progress.total is {total!r}: None, or a number no less than done ({done!r})"
        if event.message is not None and not isinstance(event.message, str):
            return f"Progress.message is a {type(event.message).__name__}, not text"
    elif kind == "chunk":
        if not isinstance(event.text, str):
            return f"Chunk.text is a {type(event.text).__name__}, not text"
    elif kind == "partial":
        try:
            json.dumps(event.data, allow_nan=False)
        except (TypeError, ValueError) as exc:
            return f"Partial.data is not JSON: {exc}"
    elif kind not in content:
        return f"a {kind} content block, where the spec's `content` declares {sorted(content)}"
    return None


def _number(value: Any) -> bool:
    return is_json_type(value, "number") and math.isfinite(value)


def output_problems(output: Any, content: frozenset[str]) -> list[str]:
    problems = []
    if output.metadata is not None and not isinstance(output.metadata, str):
        problems.append(f"metadata is a {type(output.metadata).__name__}, not text")
    for i, block in enumerate(output.content):
        kind = block_kind(block)
        if kind is None or kind not in content:
            shown = kind or type(block).__name__
            problems.append(
                f"content[{i}] is {shown}; the spec's `content` declares {sorted(content)}"
            )
    return problems


class NotJson(Exception):
    pass


def plain(value: Any, model: type[BaseModel] | None, path: str) -> Any:
    """`value` as JSON, exactly as the implementation made it: no coercion, models dumped strictly."""
    if isinstance(value, BaseModel):
        if model is not None and not isinstance(value, model):
            raise NotJson(
                f"{path}: a {type(value).__name__}, not the tool's result model {model.__name__}"
            )
        # warnings="error": a wrong-typed value set by model_construct or assignment fails here.
        try:
            dumped = value.model_dump(mode="json", by_alias=True, warnings="error")
        except Exception as exc:  # noqa: BLE001 - pydantic's serialization errors
            raise NotJson(
                f"{path}: the {type(value).__name__} holds a value that does not serialize as its "
                "field's type (a wrong type set by model_construct or assignment, or an object JSON "
                f"cannot carry): {short(str(exc))}"
            ) from None
        if _non_finite(
            value.model_dump(warnings=False)
        ):  # the JSON dump turned it into null, silently
            raise NotJson(
                f"{path}: the {type(value).__name__} holds an infinite or NaN number (sent as null)"
            )
        return dumped
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotJson(f"{path}: {value!r} is not a JSON number")
        return value
    if isinstance(value, list):
        return [plain(item, None, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotJson(f"{path}: the key {key!r} is not a string")
            out[key] = plain(item, None, f"{path}.{key}")
        return out
    raise NotJson(f"{path}: a {type(value).__name__} is not a JSON value")


def _non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        value = list(value.values())
    return isinstance(value, (list, tuple)) and any(_non_finite(item) for item in value)


def schema_errors(schema: Any) -> Callable[[Any], list[str]]:
    """A check of values against `schema` (jsonschema, Draft 2020-12, the oracle): the problems, as lines."""
    if schema is None:
        return lambda value: []
    validator = json_schema_validator(schema)
    type(validator).check_schema(schema)

    def check(value: Any) -> list[str]:
        errors = sorted(
            validator.iter_errors(value), key=lambda e: [str(p) for p in e.absolute_path]
        )
        lines = [short(f"at {e.json_path}: {e.message}") for e in errors[:_SHOWN_ERRORS]]
        if len(errors) > _SHOWN_ERRORS:
            lines.append(f"and {len(errors) - _SHOWN_ERRORS} more")
        return lines

    return check


def raised(exc: BaseException) -> list[str]:
    lines = [short(f"{type(exc).__name__}: {exc}")]
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        lines.append(
            f"at {last.filename}:{last.lineno} in {last.name}: {(last.line or '').strip()}"
        )
    return lines


def short(text: str) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


@dataclass(frozen=True)
class Outcome:
    """One call's judged outcome: a JSON result, or a declared error kind."""

    result: Any = None
    error: str | None = None

    def same(self, other: Outcome) -> bool:
        if self.error is not None or other.error is not None:
            return self.error == other.error
        return json_equal(self.result, other.result)

    def shown(self) -> str:
        if self.error is not None:
            return f"error {self.error!r}"
        return f"result {short(json.dumps(self.result, sort_keys=True))}"
