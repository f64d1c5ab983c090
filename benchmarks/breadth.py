"""Breadth of JSON Schema support: toolgen's own templates against datamodel-code-generator.

Two measurements, both in process:

1. constructs: one small parameter schema per JSON Schema construct, with an instance
   that must be accepted and one that must be rejected (both labels checked with the
   reference validator, jsonschema, first). Each generator's model is imported and
   asked to validate both. Verdicts: `ok` (accepts the valid, rejects the invalid),
   `lax` (accepts both: the construct is not enforced), `rejects valid`, `error`
   (no model: generation, lint or import failed). dcg runs twice: with the options of
   codegen-anchors §4, and with strict_types and use_unique_items_as_set added. `format` is an annotation in Draft
   2020-12 unless a validator opts in, so there `asserts format` and `annotation only`
   both conform.
2. corpus: a seeded sample of real tool schemas from the shared corpus (*.jsonl)
   (`parameters` or `inputSchema`), normalised the same way for both generators (see
   `normalise`). Counted per generator: generated and imported / refused with a
   diagnostic / crashed, with the reasons.

    python benchmarks/breadth.py [--sample 300] [--seed 1] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import importlib
import io
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
import types
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import jsonschema  # noqa: E402
from _util import load, machine, table  # noqa: E402
from dcg import generate_one  # noqa: E402

# (id, property schema or whole parameters schema, valid value, invalid value[, note])
# A case whose schema has "$whole" is the whole parameters schema and its values the whole arguments.
CONSTRUCTS: list[tuple[str, dict[str, Any], Any, Any]] = [
    ("string minLength/maxLength", {"type": "string", "minLength": 2, "maxLength": 4}, "abc", "a"),
    ("string pattern", {"type": "string", "pattern": "^[a-z]+$"}, "abc", "ABC"),
    ("string: no coercion from number", {"type": "string"}, "5", 5),
    ("integer minimum/maximum", {"type": "integer", "minimum": 1, "maximum": 5}, 3, 9),
    ("integer: no coercion from string", {"type": "integer"}, 1, "1"),
    ("integer: boolean is not an integer", {"type": "integer"}, 0, True),
    ("integer: 1.0 is an integer", {"type": "integer"}, 1.0, 1.5),
    ("number exclusiveMinimum", {"type": "number", "exclusiveMinimum": 0}, 0.5, 0),
    ("number: an integer is a number", {"type": "number"}, 2, "2"),
    ("multipleOf", {"type": "integer", "multipleOf": 5}, 10, 7),
    ("enum of strings", {"type": "string", "enum": ["a", "b"]}, "a", "z"),
    ("enum of integers", {"enum": [1, 2, 3]}, 2, 4),
    ("enum of floats", {"enum": [0.5, 1.5]}, 0.5, 1.0),
    ("enum with null", {"enum": ["a", None]}, None, "b"),
    ("const", {"const": "fixed"}, "fixed", "other"),
    (
        "format date-time (annotation in 2020-12)",
        {"type": "string", "format": "date-time"},
        "2026-11-21T10:00:00Z",
        "soon",
    ),
    (
        "format email (annotation in 2020-12)",
        {"type": "string", "format": "email"},
        "a@example.com",
        "nope",
    ),
    (
        "format uri (annotation in 2020-12)",
        {"type": "string", "format": "uri"},
        "https://example.com",
        "not a uri",
    ),
    (
        "format uuid (annotation in 2020-12)",
        {"type": "string", "format": "uuid"},
        "0b9d6a52-3c1e-4f7a-9a53-2f5c1d7e8a90",
        "xyz",
    ),
    (
        "array items + minItems/maxItems",
        {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2},
        [1],
        [],
    ),
    (
        "array uniqueItems",
        {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
        [1, 2],
        [1, 1],
    ),
    (
        "array prefixItems (tuple)",
        {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False},
        ["a", 1],
        [1, "a"],
    ),
    ("array contains", {"type": "array", "contains": {"type": "integer"}}, ["a", 1], ["a"]),
    (
        "nested closed object",
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
            "additionalProperties": False,
        },
        {"a": "x"},
        {"a": "x", "b": 1},
    ),
    (
        "map (additionalProperties schema)",
        {"type": "object", "additionalProperties": {"type": "integer"}},
        {"k": 1},
        {"k": "v"},
    ),
    (
        "patternProperties",
        {
            "type": "object",
            "patternProperties": {"^n_": {"type": "integer"}},
            "additionalProperties": False,
        },
        {"n_a": 1},
        {"n_a": "x"},
    ),
    (
        "propertyNames",
        {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
        {"ab": 1},
        {"AB": 1},
    ),
    ("minProperties", {"type": "object", "minProperties": 1}, {"a": 1}, {}),
    (
        "dependentRequired",
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "dependentRequired": {"a": ["b"]},
        },
        {"a": 1, "b": 2},
        {"a": 1},
    ),
    ("nullable (type list)", {"type": ["string", "null"]}, None, 5),
    ("nullable (anyOf with null)", {"anyOf": [{"type": "integer"}, {"type": "null"}]}, None, "x"),
    ("anyOf of scalars", {"anyOf": [{"type": "string"}, {"type": "integer"}]}, 5, 1.5),
    (
        "oneOf of objects (const tag)",
        {
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"kind": {"const": "a"}, "x": {"type": "integer"}},
                    "required": ["kind", "x"],
                    "additionalProperties": False,
                },
                {
                    "type": "object",
                    "properties": {"kind": {"const": "b"}, "y": {"type": "string"}},
                    "required": ["kind", "y"],
                    "additionalProperties": False,
                },
            ]
        },
        {"kind": "a", "x": 1},
        {"kind": "a", "y": "s"},
    ),
    (
        "allOf (merge)",
        {
            "allOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                {"properties": {"b": {"type": "string"}}, "required": ["b"]},
            ]
        },
        {"a": 1, "b": "x"},
        {"a": 1},
    ),
    ("not", {"not": {"type": "string"}}, 1, "s"),
    (
        "if/then/else",
        {
            "type": "object",
            "properties": {"kind": {"type": "string"}, "n": {"type": "integer"}},
            "if": {"properties": {"kind": {"const": "num"}}, "required": ["kind"]},
            "then": {"required": ["n"]},
        },
        {"kind": "num", "n": 1},
        {"kind": "num"},
    ),
    (
        "$ref to $defs",
        {
            "$whole": True,
            "type": "object",
            "properties": {"x": {"$ref": "#/$defs/Point"}},
            "required": ["x"],
            "additionalProperties": False,
            "$defs": {
                "Point": {
                    "type": "object",
                    "properties": {"lat": {"type": "number"}},
                    "required": ["lat"],
                    "additionalProperties": False,
                }
            },
        },
        {"x": {"lat": 1.5}},
        {"x": {}},
    ),
    (
        "recursive $ref",
        {
            "$whole": True,
            "type": "object",
            "properties": {"x": {"$ref": "#/$defs/Node"}},
            "required": ["x"],
            "additionalProperties": False,
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {
                        "v": {"type": "integer"},
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                    },
                    "required": ["v"],
                    "additionalProperties": False,
                }
            },
        },
        {"x": {"v": 1, "children": [{"v": 2}]}},
        {"x": {"v": 1, "children": [{"v": "x"}]}},
    ),
    (
        "required property",
        {
            "$whole": True,
            "type": "object",
            "properties": {"x": {"type": "integer"}},
            "required": ["x"],
        },
        {"x": 1},
        {},
    ),
    (
        "extra key where additionalProperties is unset (JSON Schema: allowed)",
        {"$whole": True, "type": "object", "properties": {"x": {"type": "integer"}}},
        {"x": 1, "y": 2},
        {"x": "s"},
    ),
    (
        "non-identifier property name",
        {
            "$whole": True,
            "type": "object",
            "properties": {"Content-Type": {"type": "string"}},
            "required": ["Content-Type"],
            "additionalProperties": False,
        },
        {"Content-Type": "text/plain"},
        {"Content-Type": 1},
    ),
    (
        "keyword/builtin property names",
        {
            "$whole": True,
            "type": "object",
            "properties": {
                "from": {"type": "string"},
                "type": {"type": "string"},
                "model_config": {"type": "string"},
            },
            "required": ["from", "type", "model_config"],
            "additionalProperties": False,
        },
        {"from": "a", "type": "b", "model_config": "c"},
        {"from": "a", "type": "b"},
    ),
]


def parameters_of(schema: dict[str, Any]) -> dict[str, Any]:
    if schema.get("$whole"):
        return {k: v for k, v in schema.items() if k != "$whole"}
    return {
        "type": "object",
        "properties": {"x": schema},
        "required": ["x"],
        "additionalProperties": False,
    }


def arguments_of(schema: dict[str, Any], value: Any) -> Any:
    return value if schema.get("$whole") else {"x": value}


# --- toolgen --------------------------------------------------------------------


class Toolgen:
    """Build one tool per call in process, write it, import it, validate with it."""

    def __init__(self, work: Path, prefix: str) -> None:
        from toolgen.config import BuildOptions
        from toolgen.pipeline import build
        from toolgen.write import apply, plan

        self.build, self.apply, self.plan, self.options = build, apply, plan, BuildOptions
        self.work, self.prefix = work, prefix
        self.count = 0
        sys.path.insert(0, str(work / "out"))

    def model(self, name: str, description: str, parameters: Any) -> tuple[Any, str]:
        """(validate function or None, reason)."""
        self.count += 1
        package = f"tg_{self.prefix}_{self.count}"
        specs = self.work / "specs" / package
        specs.mkdir(parents=True)
        spec = {
            "name": name,
            "description": description or "No description.",
            "parameters": parameters,
        }
        (specs / "tool.json").write_text(json.dumps(spec), "utf-8")
        try:
            result = self.build(specs, self.options(package=package))
        except Exception as exc:  # a crash, not a diagnostic
            return None, f"crash: {type(exc).__name__}: {exc}"[:160]
        if not result.ok:
            errors = sorted({d.rule for d in result.diagnostics if d.is_error})
            return None, "refused: " + ", ".join(errors)
        out = self.work / "out"
        self.apply(out, self.plan(out, result.files, self.options(package=package)))
        importlib.invalidate_caches()
        try:
            module = importlib.import_module(package)
            module.tool_info(name)  # imports the tool module: builds its models
        except Exception as exc:
            return None, f"import: {type(exc).__name__}: {str(exc).splitlines()[0]}"[:160]

        def validate(arguments: Any) -> bool:
            try:
                module.validate_arguments(name, arguments)
                return True
            except module.ToolArgumentsError:
                return False

        return validate, ""


# --- datamodel-code-generator ------------------------------------------------------


class Dcg:
    def __init__(self, prefix: str, **options: Any) -> None:
        self.prefix, self.count, self.options = prefix, 0, options

    def model(self, name: str, description: str, parameters: Any) -> tuple[Any, str]:
        from pydantic import ValidationError

        self.count += 1
        title = "".join(w.capitalize() for w in re.split(r"[^A-Za-z0-9]+", name) if w) or "Tool"
        title = f"{title}Arguments" if title[0].isalpha() else f"T{title}Arguments"
        schema = {**parameters, "title": title} if isinstance(parameters, dict) else parameters
        try:
            code = generate_one(schema, "builtin", **self.options)
        except Exception as exc:
            return (
                None,
                f"crash: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[
                    :160
                ],
            )
        module = types.ModuleType(f"dcg_{self.prefix}_{self.count}")
        sys.modules[module.__name__] = module
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(code, f"<dcg {name}>", "exec"), module.__dict__)
            model: Any = getattr(module, title, None)
            if model is None:  # a schema that became a type alias or another root name
                candidates = [
                    v
                    for v in module.__dict__.values()
                    if isinstance(v, type)
                    and hasattr(v, "model_validate")
                    and v.__module__ == module.__name__
                ]
                model = candidates[-1] if candidates else None
            if model is None:
                return None, "import: no model class in the output"
            model.model_rebuild()
        except Exception as exc:
            return (
                None,
                f"import: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[
                    :160
                ],
            )

        def validate(arguments: Any) -> bool:
            try:
                model.model_validate(arguments)
                return True
            except ValidationError:
                return False

        return validate, ""


def verdict(validate: Any, reason: str, valid: Any, invalid: Any) -> str:
    if validate is None:
        return "error: " + reason
    try:
        accepts, rejects = validate(valid), not validate(invalid)
    except Exception as exc:
        return f"error: validate raised {type(exc).__name__}"
    if accepts and rejects:
        return "ok"
    if accepts:
        return "lax"
    if rejects:
        return "rejects valid"
    return "wrong both ways"


def strict_dcg(prefix: str) -> Dcg:
    """dcg with the options that move it closest to JSON Schema (not in codegen-anchors §4)."""
    from datamodel_code_generator.types import StrictTypes  # type: ignore[attr-defined]

    return Dcg(
        prefix,
        strict_types=[StrictTypes.str, StrictTypes.int, StrictTypes.float, StrictTypes.bool],
        use_unique_items_as_set=True,
    )


def constructs(work: Path) -> tuple[str, dict[str, collections.Counter[str]]]:
    oracle = jsonschema.Draft202012Validator
    generators = (
        ("toolgen", Toolgen(work / "constructs", "construct")),
        ("dcg", Dcg("construct")),
        ("dcg strict", strict_dcg("construct_strict")),
    )
    rows: list[list[str]] = []
    totals: dict[str, collections.Counter[str]] = {
        key: collections.Counter() for key, _ in generators
    }
    for label, schema, valid, invalid in CONSTRUCTS:
        parameters = parameters_of(schema)
        good, bad = arguments_of(schema, valid), arguments_of(schema, invalid)
        assert oracle(parameters).is_valid(good), label
        optional = oracle(parameters).is_valid(
            bad
        )  # `format` only annotates unless a validator opts in
        assert optional == ("format" in label), label
        verdicts = []
        for key, generator in generators:
            with contextlib.redirect_stderr(io.StringIO()):
                validate, reason = generator.model("case_tool", "A test case.", parameters)
            v = verdict(validate, reason, good, bad)
            if optional:
                v = {"ok": "asserts format", "lax": "annotation only (conforms)"}.get(v, v)
            totals[key][v.split(":")[0]] += 1
            verdicts.append(v)
        rows.append([label, f"`{json.dumps(valid)}` / `{json.dumps(invalid)}`", *verdicts])
    return table(
        [
            "construct",
            "valid / invalid value",
            "toolgen (own templates)",
            "dcg 0.89, §4 options",
            "dcg + strict_types, unique-items-as-set",
        ],
        rows,
    ), totals


# --- corpus ------------------------------------------------------------------------

TYPE_ALIASES = {
    "dict": "object",
    "map": "object",
    "hashmap": "object",
    "str": "string",
    "text": "string",
    "char": "string",
    "float": "number",
    "double": "number",
    "decimal": "number",
    "int": "integer",
    "long": "integer",
    "bool": "boolean",
    "list": "array",
    "tuple": "array",
    "arraylist": "array",
    "none": "null",
    "nil": "null",
}
STANDARD = {"string", "number", "integer", "boolean", "object", "array", "null"}
NON_STANDARD_KEYS = {"optional"}


def normalise(schema: Any, changes: collections.Counter[str]) -> Any:
    """Map non-standard type names to JSON Schema (`dict` -> object, `float` -> number, ...,
    case-insensitive); drop `type` when it is `any` or empty; drop BFCL's `optional` key.
    Everything else is left as it is, so both generators see the same schema."""
    if isinstance(schema, list):
        return [normalise(s, changes) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("enum", "const", "default", "examples", "example"):
            out[key] = value
        elif key == "type" and isinstance(value, str) and value not in STANDARD:
            mapped = TYPE_ALIASES.get(
                value.lower(), value.lower() if value.lower() in STANDARD else None
            )
            changes[f"type {value!r} -> {mapped or 'dropped'}"] += 1
            if mapped:
                out[key] = mapped
        elif key in NON_STANDARD_KEYS:
            changes[f"key {key!r} dropped"] += 1
        elif key == "properties" and isinstance(value, dict):
            out[key] = {k: normalise(v, changes) for k, v in value.items()}
        else:
            out[key] = normalise(value, changes)
    return out


def sample_corpus(corpus: Path, size: int, seed: int) -> list[dict[str, Any]]:
    files = sorted(corpus.glob("*.jsonl"))
    per_file = max(1, size // len(files))
    rng = random.Random(seed)
    picked = []
    for path in files:
        records = [
            json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()
        ]
        records = [
            r for r in records if isinstance(r.get("parameters", r.get("inputSchema")), dict)
        ]
        picked += rng.sample(records, min(per_file, len(records)))
    return picked


def corpus_run(work: Path, corpus: Path, size: int, seed: int) -> str:
    records = sample_corpus(corpus, size, seed)
    changes: collections.Counter[str] = collections.Counter()
    tg, dcg = Toolgen(work / "corpus", "corpus"), Dcg("corpus")
    outcomes: dict[str, collections.Counter[str]] = {
        "toolgen": collections.Counter(),
        "dcg": collections.Counter(),
    }
    reasons: dict[str, collections.Counter[str]] = {
        "toolgen": collections.Counter(),
        "dcg": collections.Counter(),
    }
    timing = {"toolgen": 0.0, "dcg": 0.0}
    by_source: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for record in records:
        parameters = normalise(record.get("parameters", record.get("inputSchema")), changes)
        for key, generator in (("toolgen", tg), ("dcg", dcg)):
            start = time.perf_counter()
            with contextlib.redirect_stderr(io.StringIO()):
                validate, reason = generator.model(
                    record["name"], record.get("description") or "", parameters
                )
            timing[key] += time.perf_counter() - start
            kind = "generated and imported" if validate is not None else reason.split(":")[0]
            outcomes[key][kind] += 1
            by_source[record["source"]][f"{key} {kind}"] += 1
            if reason:
                reasons[key][re.sub(r"'[^']*'", "'…'", reason)] += 1
    sources = collections.Counter(r["source"] for r in records)
    lines = [
        f"sample: {len(records)} tools ({', '.join(f'{s} {n}' for s, n in sorted(sources.items()))}), seed {seed}",
        "",
    ]
    lines.append(
        "normalisation applied to both: "
        + (", ".join(f"{k} ×{n}" for k, n in changes.most_common()) or "none")
    )
    lines.append("")
    kinds = sorted({k for c in outcomes.values() for k in c})
    lines.append(
        table(
            ["outcome", "toolgen", "dcg 0.89 (builtin)"],
            [[k, str(outcomes["toolgen"][k]), str(outcomes["dcg"][k])] for k in kinds],
        )
    )
    lines.append("")
    lines.append(
        f"in-process time for the sample: toolgen {timing['toolgen']:.1f} s "
        f"(one build per tool: lint, render, black, write, import), dcg {timing['dcg']:.1f} s "
        "(generate() + exec of the module)"
    )
    for key in ("toolgen", "dcg"):
        if reasons[key]:
            lines.append("")
            lines.append(f"{key} failures by reason:")
            lines.append("")
            lines.append(
                table(
                    ["reason", "tools"],
                    [[r.replace("|", "\\|"), str(n)] for r, n in reasons[key].most_common(12)],
                )
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--corpus",
        type=Path,
        default=Path(
            os.environ.get("TOOLGEN_CORPUS")
            or Path(__file__).resolve().parents[2] / "shared" / "corpus"
        ),
    )
    args = parser.parse_args()
    print(f"machine: {machine()}; {load()}")
    with tempfile.TemporaryDirectory(prefix="toolgen-breadth-") as tmp:
        os.environ["TOOLGEN_CACHE_DIR"] = str(Path(tmp) / "cache")
        construct_table, totals = constructs(Path(tmp))
        print("\n## JSON Schema constructs\n")
        print(construct_table)
        print()
        verdicts = sorted({k for counter in totals.values() for k in counter})
        print(
            table(
                ["verdict", *totals], [[k, *(str(c[k]) for c in totals.values())] for k in verdicts]
            )
        )
        print("\n## Corpus sample\n")
        print(corpus_run(Path(tmp), args.corpus, args.sample, args.seed))
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
