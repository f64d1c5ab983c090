"""datamodel-code-generator as the baseline, configured as in codegen-anchors §4.

As a script it is the in-process worker: it calls `generate()` once per schema file
(one module per tool) and writes the modules, then prints a JSON line with the loop
time and the median time of one call after the first.

    python benchmarks/dcg.py JSON_DIR OUT_DIR builtin|black
    python benchmarks/dcg.py JSON_DIR OUT_DIR combined

`combined` is the other way to call it: every tool's schema under `$defs` of one schema,
one generate() call with `naming_strategy=parent-prefixed` (builtin formatter), one module.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any

# generate() options (codegen-anchors §4); CLI_FLAGS says the same on the command line.
OPTIONS: dict[str, Any] = dict(
    use_annotated=True,
    field_constraints=True,
    snake_case_field=True,
    capitalise_enum_members=True,
    use_title_as_name=True,
    collapse_root_models=True,
    disable_timestamp=True,
    use_schema_description=True,
)
CLI_FLAGS = [
    "--input-file-type",
    "jsonschema",
    "--output-model-type",
    "pydantic_v2.BaseModel",
    "--target-python-version",
    "3.11",
    "--use-annotated",
    "--field-constraints",
    "--snake-case-field",
    "--capitalise-enum-members",
    "--use-title-as-name",
    "--collapse-root-models",
    "--disable-timestamp",
    "--use-schema-description",
]


def generate_one(schema: str | dict[str, Any], formatter: str, **extra: Any) -> str:
    from datamodel_code_generator import (  # type: ignore[attr-defined]
        DataModelType,
        Formatter,
        InputFileType,
        PythonVersion,
        generate,
    )

    text = schema if isinstance(schema, str) else json.dumps(schema)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the black/isort "will become optional" FutureWarning
        out = generate(
            text,
            input_file_type=InputFileType.JsonSchema,
            output_model_type=DataModelType.PydanticV2BaseModel,
            target_python_version=PythonVersion.PY_311,
            formatters=[Formatter(formatter)],
            **OPTIONS,
            **extra,
        )
    assert isinstance(out, str)
    return out


def combined(json_dir: Path, out_dir: Path) -> None:
    from datamodel_code_generator import NamingStrategy

    schemas = {
        path.stem: json.loads(path.read_text("utf-8")) for path in sorted(json_dir.glob("*.json"))
    }
    root = {
        "$defs": schemas,
        "type": "object",
        "title": "AllTools",
        "properties": {name: {"$ref": f"#/$defs/{name}"} for name in schemas},
    }
    start = time.perf_counter()
    code = generate_one(root, "builtin", naming_strategy=NamingStrategy.ParentPrefixed)
    loop = time.perf_counter() - start
    (out_dir / "models.py").write_text(code, "utf-8")
    print(
        json.dumps(
            {"loop_s": loop, "first_call_s": loop, "per_call_ms": loop * 1000 / len(schemas)}
        )
    )


def main() -> None:
    json_dir, out_dir, formatter = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    out_dir.mkdir(parents=True, exist_ok=True)
    if formatter == "combined":
        combined(json_dir, out_dir)
        return
    calls: list[float] = []
    start = time.perf_counter()
    for path in sorted(json_dir.glob("*.json")):
        t = time.perf_counter()
        code = generate_one(path.read_text("utf-8"), formatter)
        calls.append(time.perf_counter() - t)
        (out_dir / f"{path.stem}.py").write_text(code, "utf-8")
    loop = time.perf_counter() - start
    warm = calls[1:] or calls
    print(
        json.dumps(
            {
                "loop_s": loop,
                "first_call_s": calls[0],
                "per_call_ms": statistics.median(warm) * 1000,
            }
        )
    )


if __name__ == "__main__":
    main()
