"""The official JSON-Schema-Test-Suite (draft 2020-12) as tool specs, for the exactness tests.

Each test group's schema becomes the schema of one required parameter, `value`, of one
tool, and the schema of the same key of its result: `{"value": <instance>}` is then the
suite's instance as arguments and as a result. References relative to the group's root
(`#/...`) are rewritten to point at where the schema now sits, unless the group's root
has an `$id` (it is then its own resource, and `#` still means its root).
"""

from __future__ import annotations

import collections
import json
import pickle
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.generation import imported, once
from toolgen.config import BuildOptions
from toolgen.pipeline import build, check_specs
from toolgen.write import apply, plan

SUITE = Path(__file__).parents[1] / "data" / "json-schema-test-suite" / "draft2020-12"
# Optional files whose tests every validator of 2020-12 should pass (the others test
# format assertion, other drafts, or remote documents).
OPTIONAL = (
    "bignum",
    "float-overflow",
    "ecmascript-regex",
    "non-bmp-regex",
    "no-schema",
    "unknownKeyword",
    "refOfUnknownKeyword",
    "anchor",
    "id",
)
WHERE = "#/properties/value"
# Rules a group may be refused by, each an intended limit documented in docs/spec-format.md.
# `unknown-keyword`: a schema keyword no validator reads is refused (a `$ref` into the value of
# one, as refOfUnknownKeyword does, included), so a typo never passes for a constraint.
INTENDED = {"ref-remote", "unsupported-keyword", "default-invalid", "unknown-keyword"}


@dataclass(frozen=True)
class Group:
    tool: str  # the tool's name
    file: str  # e.g. "ref.json" or "optional/bignum.json"
    description: str
    schema: Any
    tests: tuple[dict[str, Any], ...]

    def parameters(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"value": _moved(self.schema)},
            "required": ["value"],
            "additionalProperties": False,
        }


def groups() -> Iterator[Group]:
    files = sorted(SUITE.glob("*.json")) + [
        SUITE / "optional" / f"{name}.json" for name in OPTIONAL
    ]
    for path in files:
        relative = path.relative_to(SUITE).as_posix()
        stem = re.sub(r"[^a-z0-9]+", "_", relative.removesuffix(".json").lower())
        for index, group in enumerate(json.loads(path.read_text("utf-8"))):
            yield Group(
                f"{stem}_{index}",
                relative,
                group["description"],
                group["schema"],
                tuple(group["tests"]),
            )


GROUPS = list(groups())


def built() -> Iterator[tuple[Any, list[Group], dict[str, list[Any]]]]:
    """The suite as one generated package (imported), the groups it holds, and the lint
    diagnostics of every group: those with an error (refused) and the others too. Generated
    once per test session (xdist's workers share it)."""
    root = once("json-schema-test-suite", _make)
    generated, found = pickle.loads((root / "lint.pickle").read_bytes())
    with imported(root / "out", "suite_pkg") as package:
        yield package, generated, found


def _make(root: Path) -> None:
    write_specs(root / "all", GROUPS, results=True)
    diagnostics, _ = check_specs(root / "all")
    found: dict[str, list[Any]] = collections.defaultdict(list)
    for d in diagnostics:
        found[Path(d.file).stem.removesuffix("_result")].append(d)
    refused = {tool: ds for tool, ds in found.items() if any(d.severity == "error" for d in ds)}
    generated = [g for g in GROUPS if g.tool not in refused]
    write_specs(root / "ok", generated, results=True)
    options = BuildOptions(package="suite_pkg")
    result = build(root / "ok", options)
    assert result.ok, "\n".join(d.text() for d in result.diagnostics if d.severity == "error")
    out = root / "out"
    out.mkdir()
    apply(out, plan(out, result.files, options))
    (root / "lint.pickle").write_bytes(pickle.dumps((generated, dict(found))))


def spec(group: Group) -> dict[str, Any]:
    return {
        "name": group.tool,
        "description": f"{group.file}: {group.description}"[:1000],
        "parameters": group.parameters(),
        "returns": {
            "type": "object",
            "properties": {"value": _moved(group.schema)},
            "required": ["value"],
            "additionalProperties": False,
        },
    }


def result_spec(group: Group) -> dict[str, Any]:
    """A tool without parameters whose result holds the group's schema: results are tested
    through it, whatever the group's arguments take."""
    return {
        "name": result_tool(group),
        "description": f"{group.file}: {group.description} (result)"[:1000],
        "parameters": {"type": "object", "properties": {}},
        "returns": spec(group)["returns"],
    }


def result_tool(group: Group) -> str:
    return f"{group.tool}_result"


def write_specs(root: Path, selected: list[Group], results: bool = False) -> None:
    """One JSON spec file per group under root (`results`: and one for its result tool)."""
    root.mkdir(parents=True, exist_ok=True)
    for group in selected:
        (root / f"{group.tool}.json").write_text(json.dumps(spec(group), indent=1), "utf-8")
        if results:
            (root / f"{result_tool(group)}.json").write_text(
                json.dumps(result_spec(group), indent=1), "utf-8"
            )


def _moved(schema: Any) -> Any:
    if isinstance(schema, dict) and "$id" in schema:
        return schema
    return _rewrite(schema)


def _rewrite(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_rewrite(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "$ref" and isinstance(value, str) and (value == "#" or value.startswith("#/")):
            out[key] = WHERE + value[1:]
        elif key in ("const", "enum", "default", "examples"):
            out[key] = value
        elif isinstance(value, dict) and "$id" in value:
            out[key] = value  # a resource of its own
        else:
            out[key] = _rewrite(value)
    return out
