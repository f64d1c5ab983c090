"""A flat object at the root of `parameters` (rule 2), for every target that needs one.

A spec's `parameters` may be `allOf`, `anyOf`, `oneOf`, `$ref` or `if`/`then`/`else` at
the root; OpenAI, Anthropic, Gemini and Bedrock take one `type: object` with
`properties` there. `flatten` writes the root as that object, one a model can satisfy:

- `$ref`: the definition inlined; `allOf`: the branches' properties and `required`
  merged (nothing is lost);
- `anyOf`/`oneOf`: every branch's properties, and required only what every branch
  requires;
- `if`/`then`/`else`, `dependentSchemas`: their properties added, none of them required.

`losses` says what a model is no longer told, for the exporters' notes (the runtime
still checks the spec's own schema). MCP takes JSON Schema as it is and keeps the root.
"""

from __future__ import annotations

from typing import Any

from toolgen.providers.base import ROOT, Note, ToolLike
from toolgen.providers.memo import memoised_by_identity
from toolgen.providers.merge import merge
from toolgen.runtime.types import json_equal
from toolgen.schema.pointer import escape, ref_name, unescape
from toolgen.schema.walk import Node

FLATTENED = ("$ref", "allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas")
# Root keywords left to `object_root`, which writes them into the description.
DESCRIBED = ("not", "dependentRequired")


def needs_flattening(schema: Node) -> bool:
    return not _FLATTENED.isdisjoint(schema)


_FLATTENED = frozenset(FLATTENED)


def flatten(schema: Node) -> Node:
    """The root as one object schema (its `$defs` kept); other schemas are returned as they are."""
    if not needs_flattening(schema):
        return schema
    defs = schema.get("$defs") or {}
    out = _flat({k: v for k, v in schema.items() if k != "$defs"}, defs, frozenset(), [])
    out["type"] = "object"
    if "$defs" in schema:
        out["$defs"] = schema["$defs"]
    return out


def losses(schema: Node) -> list[tuple[str, str]]:
    """(pointer, what a model is not told) for each root keyword the flat object loses."""
    found: list[tuple[str, str]] = []
    if needs_flattening(schema):
        _flat(
            {k: v for k, v in schema.items() if k != "$defs"},
            schema.get("$defs") or {},
            frozenset(),
            found,
        )
    found += [
        (
            f"/{key}",
            f"the `{key}` at the root is written into the description, not checked by the model",
        )
        for key in DESCRIBED
        if key in schema
    ]
    return found


def notes(tool: ToolLike, target: str, found: list[Note]) -> None:
    """What `target` loses where the root of the tool's `parameters` is merged into one object."""
    for path, what in _losses_of(tool.parameters):
        found.append(Note(tool.name, target, ROOT, what, path))


# Every variant of every target asks about the same `parameters` objects: worked out once each.
_losses_of = memoised_by_identity(losses)


def _flat(
    node: Any, defs: Node, seen: frozenset[str], lost: list[tuple[str, str]], path: str = ""
) -> Node:
    """`node` without root combinators; what it loses is appended to `lost`."""
    if not isinstance(node, dict):
        if node is False:
            lost.append((path, "a branch that admits nothing (`false`) is left out"))
        return {}
    out: Node = {k: v for k, v in node.items() if k not in FLATTENED}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref_name(ref) in defs and ref_name(ref) not in seen:
        name = ref_name(ref)
        out = conjoin(out, _flat(defs[name], defs, seen | {name}, lost, f"/$defs/{name}"))
    for i, branch in enumerate(node.get("allOf") or ()):
        out = conjoin(out, _flat(branch, defs, seen, lost, f"{path}/allOf/{i}"))
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            flat = [
                _flat(b, defs, seen, [], f"{path}/{key}/{i}")
                for i, b in enumerate(branches)
                if b is not False
            ]
            out = conjoin(out, disjoin(flat))
            lost.append(
                (
                    f"{path}/{key}",
                    f"the {key} at the root is merged into one object; the model is not told "
                    f"that {_alternatives(key, flat)}",
                )
            )
    conditional = [(k, node[k]) for k in ("if", "then", "else") if k in node]
    dependent = node.get("dependentSchemas")
    if isinstance(dependent, dict):
        conditional += [
            (f"dependentSchemas/{escape(name)}", sub) for name, sub in dependent.items()
        ]
    if conditional:
        # Their keys are added, none required; a key the object already says more of keeps
        # what it says (a condition's constraints hold only when the condition does).
        flat = [_flat(sub, defs, seen, [], f"{path}/{key}") for key, sub in conditional]
        properties = dict(out.get("properties") or {})
        for name, sub in disjoin(flat).get("properties", {}).items():
            if name not in properties or properties[name] in ({}, True):
                properties[name] = sub
        out["properties"] = properties
        said = "; ".join(
            f"{_condition(key)} requires {', '.join(_required(f))}"
            for (key, _), f in zip(conditional, flat, strict=False)
            if _required(f)
        )
        lost.append(
            (
                f"{path}/{conditional[0][0]}",
                "the conditions at the root ("
                + ", ".join(dict.fromkeys(k.split("/")[0] for k, _ in conditional))
                + ") are merged into one object; the model is not told "
                + (f"that {said}" if said else "what they require"),
            )
        )
    return out


def conjoin(a: Node, b: Node) -> Node:
    """Both objects at once: properties merged, `required` joined; the first says the rest."""
    out = dict(a)
    for key, value in b.items():
        mine = out.get(key)
        if key not in out:
            out[key] = value
        elif key == "properties" and isinstance(mine, dict) and isinstance(value, dict):
            properties = dict(mine)
            for name, sub in value.items():
                if name not in properties or json_equal(properties[name], sub):
                    properties.setdefault(name, sub)
                    continue
                here = properties[name]
                both = (
                    merge(here, sub)
                    if isinstance(here, dict)
                    and isinstance(sub, dict)
                    and not ("$ref" in here or "$ref" in sub)
                    else None
                )
                properties[name] = both if both is not None else {"allOf": [here, sub]}
            out[key] = properties
        elif key == "required" and isinstance(mine, list) and isinstance(value, list):
            out[key] = list(dict.fromkeys([*mine, *value]))
        elif key == "additionalProperties" and value is False:
            out[key] = False
    return out


def disjoin(branches: list[Node]) -> Node:
    """One object any branch's arguments fit: every branch's properties, required what all require."""
    if not branches:
        return {}
    properties: dict[str, list[Any]] = {}
    for branch in branches:
        for name, sub in (branch.get("properties") or {}).items():
            seen = properties.setdefault(name, [])
            if not any(json_equal(sub, other) for other in seen):
                seen.append(sub)
    required = [
        name for name in _required(branches[0]) if all(name in _required(b) for b in branches[1:])
    ]
    out: Node = {
        "properties": {
            name: subs[0] if len(subs) == 1 else {"anyOf": subs}
            for name, subs in properties.items()
        }
    }
    if required:
        out["required"] = required
    if all(b.get("additionalProperties") is False for b in branches):
        out["additionalProperties"] = False
    return out


def _condition(key: str) -> str:
    if key.startswith("dependentSchemas/"):
        return f"{unescape(key.split('/', 1)[1])!r} present"
    return {
        "if": "the if",
        "then": "the then (when the if holds)",
        "else": "the else (when it does not)",
    }[key]


def _required(schema: Node) -> list[str]:
    names = schema.get("required")
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def _alternatives(key: str, branches: list[Node]) -> str:
    """What the merged branches said: which keys each requires."""
    how = "exactly one" if key == "oneOf" else "at least one"
    common = set.intersection(*(set(_required(b)) for b in branches)) if branches else set()
    own = [[n for n in _required(b) if n not in common] for b in branches]
    if branches and all(own) and len({tuple(sorted(o)) for o in own}) == len(own):
        said = ", ".join(o[0] if len(o) == 1 else f"({' and '.join(o)})" for o in own)
        return f"{how} of {said} is required"
    return f"the arguments match {how} of {len(branches)} alternatives"
