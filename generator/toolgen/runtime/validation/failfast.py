# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A second validator of a class whose failing pass keeps few errors, whatever the input's size,
for the inputs that could make the class's own keep more than `Limits.max_errors`.

pydantic-core's failing pass keeps one error per wrong value and per unknown key (about 400
bytes and 1-3 µs each): 490,000 wrong items in 1 MB of text cost 0.3 s and 190 MiB before
toolgen could read the first error. The twin, compiled once per class from its core schema,
accepts exactly what the class accepts (it builds no instances: on success, the class reads
the input, and cannot fail), but:

- every array, set, tuple and map stops at its first wrong item (pydantic-core's `fail_fast`);
- a closed object with more keys than it declares is cut, before its fields are read, to the
  declared keys it holds and its first unknown key: it holds an unknown key either way (it
  cannot hold more declared keys than there are), so the verdict is the same.

So its errors are bounded by the schema (its fields, union branches and nesting), not by the
input, for every class without recursion; a valid input costs the twin's pass (a Python
call per closed object) and the class's. It is used when the input may hold more values than
`max_errors`: text longer than that with as many commas and colons (`needed`: each value but
the first follows one), or a dict `bounds` cannot bound whose walk counted more members
(validate.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from pydantic_core import SchemaValidator, core_schema

from .payload import Limits

_SEQUENCES = frozenset({"list", "set", "frozenset", "tuple", "dict"})
_OPAQUE = frozenset({"model", "definition-ref", "definitions"})
TITLE = "fail-fast"  # the title of the twin's errors: its verdict, not the errors to report
# Of each class met, compiled once: its fail-fast twin (or None, where it cannot be built).
_TWINS: dict[type[BaseModel], SchemaValidator | None] = {}


def needed(text: str | bytes | bytearray, limits: Limits) -> bool:
    """Whether the class's own pass over this JSON text could keep more errors than the budget:
    more values in it than `max_errors` (each value after the first follows a comma or a
    colon; a string's own count too, so this only overestimates)."""
    most = limits.max_errors
    if len(text) <= most:
        return False
    if isinstance(text, str):
        return text.count(",") + text.count(":") >= most
    return bytes(text).count(b",") + bytes(text).count(b":") >= most


def twin(model: type[BaseModel]) -> SchemaValidator | None:
    """The class's fail-fast judge (the same verdicts; it builds no instances), or None."""
    if model in _TWINS:
        return _TWINS[model]
    schema: Any = model.__pydantic_core_schema__
    try:
        config = _root_config(schema)
        titled: Any = {**config, "title": TITLE}
        found: SchemaValidator | None = SchemaValidator(_twin(schema, config), titled)
    except Exception:  # noqa: BLE001 - a schema this module does not know: none
        found = None
    _TWINS[model] = found
    return found


def _root_config(schema: dict[str, Any]) -> dict[str, Any]:
    """The configuration of the class the core schema is of (through shared definitions)."""
    if schema["type"] == "definitions":
        inner = schema["schema"]
        if inner["type"] == "definition-ref":
            inner = next(d for d in schema["definitions"] if d.get("ref") == inner["schema_ref"])
        schema = inner
    return dict(schema.get("config") or {})


def _same(config: dict[str, Any], root: dict[str, Any]) -> bool:
    """Whether a class's configuration reads values as the root's does (its title and extra
    keys aside: the fields carry those)."""
    ignored = ("title", "extra_fields_behavior")
    return {k: v for k, v in config.items() if k not in ignored} == {
        k: v for k, v in root.items() if k not in ignored
    }


class _Unknown(Exception):
    """A schema whose twin would judge otherwise (a Python function given an instance)."""


def _twin(node: Any, config: dict[str, Any]) -> Any:
    """The core schema, every array and map failing fast, every model read as its fields (an
    instance's prebuilt validator would be used otherwise) and cut where closed."""
    if isinstance(node, list):
        return [_twin(item, config) for item in node]
    if not isinstance(node, dict):
        return node
    kind = node.get("type")
    if not isinstance(kind, str):
        kind = None  # not a schema: a mapping of fields (one of which may be named "type")
    if kind == "model":
        own = node.get("config") or {}
        if node.get("custom_init") or node.get("post_init") or not _same(own, config):
            raise _Unknown  # (one configuration for the whole twin: the root class's)
        inner = _twin(node["schema"], {**config, **own})
        if node.get("ref") is not None:
            inner = {**inner, "ref": node["ref"]}
        return inner
    if str(kind).startswith("function-") and node.get("schema", {}).get("type") in _OPAQUE:
        raise _Unknown
    out: dict[str, Any] = {key: _twin(value, config) for key, value in node.items()}
    if kind in _SEQUENCES:
        out["fail_fast"] = True
    elif kind == "model-fields":
        extra = node.get("extra_behavior") or config.get("extra_fields_behavior") or "ignore"
        out["extra_behavior"] = extra
        declared = _declared(node, config) if extra == "forbid" else None
        if declared is not None:
            ref = out.pop("ref", None)
            cut: dict[str, Any] = dict(
                core_schema.no_info_before_validator_function(_cutter(declared), out)
            )
            if ref is not None:
                cut["ref"] = ref
            return cut
    return out


def _declared(fields: dict[str, Any], config: dict[str, Any]) -> frozenset[str] | None:
    """The keys a closed object reads, or None (open, or keys it cannot list)."""
    keys: set[str] = set()
    by_name = config.get("validate_by_name", False) or config.get("populate_by_name", False)
    for name, field in fields["fields"].items():
        alias = field.get("validation_alias")
        if alias is None:
            keys.add(name)
        elif isinstance(alias, str):
            keys.add(alias)
            if by_name:
                keys.add(name)
        else:
            return None  # alias paths or choices: not counted
    return frozenset(keys)


def _cutter(declared: frozenset[str]) -> Callable[[Any], Any]:
    most = len(declared)

    def cut(value: Any) -> Any:
        """More keys than declared: the declared keys sent, and the first unknown one."""
        if type(value) is not dict or len(value) <= most:
            return value
        kept = {key: value[key] for key in declared if key in value}
        for key in value:  # at most `most + 1` steps
            if key not in declared:
                kept[key] = value[key]
                break
        return kept

    return cut
