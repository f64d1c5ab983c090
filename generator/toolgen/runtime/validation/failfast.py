# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A second validator of a class whose failing pass keeps few errors, whatever the input's size,
for the inputs that could make the class's own keep more than `Limits.max_errors`.

pydantic-core's failing pass keeps one error per wrong value and per unknown key (about 400
bytes and 1-3 µs each): 490,000 wrong items in 1 MB of text cost 0.3 s and 190 MiB before
toolgen could read the first error. The twin, compiled once per class from its core schema,
accepts exactly what the class accepts (what it builds is thrown away: on success, the class
reads the input, and cannot fail), but:

- every array, set, tuple and map stops at its first wrong item (pydantic-core's `fail_fast`);
- a closed object with more keys than it declares is cut, before its fields are read, to the
  declared keys it holds and its first unknown key: it holds an unknown key either way (it
  cannot hold more declared keys than there are), so the verdict is the same.

Every class met on the way, the class itself, a recursive one (through `definitions`) or a
nested one of another configuration, is rewritten so (`_Rewrite`). So its errors are bounded
by the schema (its fields, union branches and nesting), not by the input; a valid input costs
the twin's pass (a Python call per closed object) and the class's. A class with no twin
(`NoTwin`) runs Python code on its objects; a pydantic dataclass inside a class is judged by
its own validator (neither is generated). The twin is used when the input may hold more values
than `max_errors`: text longer than that with as many commas and colons (`needed`: each value
but the first follows one), or a dict `bounds` cannot bound whose walk counted more members
(validate.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from pydantic_core import SchemaValidator, core_schema

from .payload import Limits

_SEQUENCES = frozenset({"list", "set", "frozenset", "tuple", "dict"})
TITLE = "fail-fast"  # the title of the twin's errors: its verdict, not the errors to report
# Of each class met, compiled once: its fail-fast twin (or None: NoTwin).
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


class NoTwin(Exception):
    """A class whose twin could judge otherwise: a Python function runs on one of its objects
    (a custom `__init__`, `model_post_init`, a model validator or a validator function given
    an instance). toolgen generates none of these (its tests check that every generated class
    has a twin)."""


def twin(model: type[BaseModel]) -> SchemaValidator | None:
    """The class's fail-fast judge (the same verdicts), or None for a class of `NoTwin`."""
    if model in _TWINS:
        return _TWINS[model]
    try:
        found: SchemaValidator | None = build(model)
    except NoTwin:
        found = None
    _TWINS[model] = found
    return found


def build(model: type[BaseModel]) -> SchemaValidator:
    """The class's fail-fast twin, compiled from its core schema (NoTwin if it has none)."""
    schema: Any = model.__pydantic_core_schema__
    config = _root_config(schema)
    titled: Any = {**config, "title": TITLE}
    return SchemaValidator(_Rewrite().schema(schema, config), titled)


def _root_config(schema: dict[str, Any]) -> dict[str, Any]:
    """The configuration of the class the core schema is of (through shared definitions): what
    pydantic compiles the class's validator with, and so what compiles what is in no class
    (a shared definition that is not a class)."""
    if schema["type"] == "definitions":
        inner = schema["schema"]
        if inner["type"] == "definition-ref":
            inner = next(d for d in schema["definitions"] if d.get("ref") == inner["schema_ref"])
        schema = inner
    return dict(schema.get("config") or {})


class _StandIn(type):
    """The type of a class's stand-in: an instance of the class counts as one of the stand-in's
    (pydantic-core takes it as it is, as the class's own validator does)."""

    of: type

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, cls.of)


class _Rewrite:
    """The core schema, every array and map failing fast, every closed object cut. Each model
    stays a model, with its own configuration (pydantic-core compiles a model's fields with
    the model's configuration, not the enclosing one's), but of a stand-in class: pydantic-core
    would use a class's prebuilt validator, not the schema rewritten here. Recursion is in
    `definitions`: each is rewritten as the rest, and its `ref` kept, so every
    `definition-ref` names the rewritten one."""

    def __init__(self) -> None:
        self._stand_ins: dict[type, type] = {}

    def schema(self, node: Any, config: dict[str, Any]) -> Any:
        if isinstance(node, list):
            return [self.schema(item, config) for item in node]
        if not isinstance(node, dict):
            return node
        kind = node.get("type")
        if not isinstance(kind, str):
            kind = None  # not a schema: a mapping of fields (one of which may be named "type")
        if kind == "model":
            return self._model(node)
        if str(kind).startswith("function-") and node.get("schema", {}).get("type") in _WRAPPED:
            raise NoTwin(f"a {kind} validator given an instance")
        out: dict[str, Any] = {
            key: value if kind and key in _UNREAD else self.schema(value, config)
            for key, value in node.items()
        }
        if kind in _SEQUENCES:
            out["fail_fast"] = True
        elif kind == "model-fields":
            return _closed(out, config)
        return out

    def _model(self, node: dict[str, Any]) -> dict[str, Any]:
        cls = node["cls"]
        if node.get("custom_init") or node.get("post_init"):
            raise NoTwin(f"{cls.__name__} runs Python code on its instances")
        own = dict(node.get("config") or {})  # what its fields are compiled with
        return {**node, "cls": self._stand_in(cls), "schema": self.schema(node["schema"], own)}

    def _stand_in(self, cls: type) -> type:
        if cls not in self._stand_ins:
            self._stand_ins[cls] = _StandIn(cls.__name__, (), {"of": cls})
        return self._stand_ins[cls]


_WRAPPED = frozenset({"model", "definition-ref", "definitions"})  # what may give an instance
_UNREAD = frozenset({"metadata", "serialization"})  # a schema's keys validation does not read


def _closed(fields: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    """The fields of an object; if it is closed, cut first to its declared keys and its
    first unknown one."""
    extra = fields.get("extra_behavior") or config.get("extra_fields_behavior") or "ignore"
    declared = _declared(fields, config) if extra == "forbid" else None
    if declared is None:
        return fields
    ref = fields.pop("ref", None)
    cut: dict[str, Any] = dict(
        core_schema.no_info_before_validator_function(_cutter(declared), fields)
    )
    if ref is not None:
        cut["ref"] = ref
    return cut


def _declared(fields: dict[str, Any], config: dict[str, Any]) -> frozenset[str] | None:
    """The keys a closed object reads, or None (keys it cannot list)."""
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
