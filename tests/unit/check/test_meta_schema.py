"""The meta-schema fast path (jsonschema-rs) gives jsonschema's verdict on every real schema."""

from __future__ import annotations

import json

import jsonschema
import jsonschema_rs
import pytest

from tests.support.generation import CORPUS, NO_CORPUS


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPUS)
def test_fast_path_agrees_with_jsonschema_on_the_whole_corpus() -> None:
    reference = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)
    seen = disagreements = invalid = 0
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            record = json.loads(line)
            for key in ("parameters", "inputSchema", "outputSchema", "response"):
                schema = record.get(key)
                if not isinstance(schema, dict):
                    continue
                verdict = reference.is_valid(schema)
                seen += 1
                invalid += not verdict
                disagreements += verdict != jsonschema_rs.meta.is_valid(schema)
    assert seen > 8406 and invalid > 1000  # both verdicts are exercised
    assert disagreements == 0
