"""The fast paths of `diagnostics`, against what they replace: `ordered` sorts by a key built
once per diagnostic, the same list as the dataclass's own order over the distinct
diagnostics (`sorted(set(...))`), repeats included; `row` is `dataclasses.asdict` with the
severity as its text, key order included (`lint --format json`), and `from_row` reads it back;
`packed` is its values in the same order (the build cache's rows), and `unpacked` reads them back."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolgen.diagnostics import Diagnostic, Severity, from_row, ordered, packed, row, unpacked

SMALL = st.sampled_from(["", "a", "b", "a/b.yaml", "é"])
DIAGNOSTIC = st.builds(
    Diagnostic,
    file=SMALL,
    line=st.integers(0, 3),
    col=st.integers(0, 3),
    rule=SMALL,
    severity=st.sampled_from(list(Severity)),
    message=SMALL,
    pointer=SMALL,
    hint=SMALL,
)


@settings(max_examples=200)
@given(st.lists(DIAGNOSTIC, max_size=30))
def test_ordered_is_the_dataclass_order_of_the_distinct_diagnostics(
    found: list[Diagnostic],
) -> None:
    assert ordered(found) == sorted(set(found))
    assert ordered(found + found[::-1]) == sorted(set(found))


@settings(max_examples=50)
@given(DIAGNOSTIC)
def test_row_is_asdict_with_the_severity_as_text(found: Diagnostic) -> None:
    expected = {**asdict(found), "severity": found.severity.value}
    assert list(row(found).items()) == list(expected.items())


@settings(max_examples=50)
@given(DIAGNOSTIC)
def test_from_row_reads_back_what_row_wrote(found: Diagnostic) -> None:
    assert from_row(json.loads(json.dumps(row(found)))) == found


def test_from_row_refuses_an_unknown_severity_as_the_enum_does() -> None:
    data = row(Diagnostic("a.yaml", 1, 1, "rule", Severity.ERROR, "message"))
    with pytest.raises(ValueError):
        from_row({**data, "severity": "fatal"})


@settings(max_examples=50)
@given(DIAGNOSTIC)
def test_packed_is_the_rows_values_and_unpacked_reads_it_back(found: Diagnostic) -> None:
    assert packed(found) == list(row(found).values())
    assert unpacked(json.loads(json.dumps(packed(found)))) == found


def test_unpacked_refuses_an_unknown_severity_and_a_row_of_another_length() -> None:
    data = packed(Diagnostic("a.yaml", 1, 1, "rule", Severity.ERROR, "message"))
    with pytest.raises(ValueError):
        unpacked([*data[:4], "fatal", *data[5:]])
    with pytest.raises(ValueError):
        unpacked([*data, "more"])
