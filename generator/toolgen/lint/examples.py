"""example-invalid: every tool example's arguments (and result) satisfy the tool's schemas."""

from __future__ import annotations

from collections.abc import Iterator

import jsonschema

from ..diagnostics import Diagnostic
from ..load import child_pointer
from . import Context

ID = "example-invalid"
SUMMARY = "Tool examples are valid against `parameters` and `returns`."


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        examples = tool.data.get("examples") or []
        for i, example in enumerate(examples):
            for key, schema_key in (("arguments", "parameters"), ("result", "returns")):
                schema = tool.schema(schema_key)
                if key not in example or schema is None:
                    continue
                for error in jsonschema.Draft202012Validator(schema).iter_errors(example[key]):
                    pointer = tool.source.at(f"/examples/{i}/{key}")
                    for part in error.absolute_path:
                        pointer = child_pointer(pointer, part)
                    yield tool.doc.diagnostic(pointer, ID, f"example {key} do not match the {schema_key}: {error.message}")
