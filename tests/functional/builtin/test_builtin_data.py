"""The data tools: CSV edge cases, JMESPath failures as declared errors, statistics that agree with statistics."""

from __future__ import annotations

import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest

from implementations import registry
from implementations.data import _percentile
from tests.support.builtin_support import check_examples


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.csv").write_text("secret\n1\n")
    return root


@pytest.fixture
def r(root: Path) -> Any:
    return registry(root)


def ok(r: Any, tool: str, **arguments: Any) -> dict[str, Any]:
    result = r.call(tool, arguments)
    assert result.ok, result.text()
    value: dict[str, Any] = result.to_dict()["result"]
    return value


def failure(r: Any, tool: str, **arguments: Any) -> tuple[str, str]:
    result = r.call(tool, arguments)
    assert result.failure is not None, result.text()
    return result.failure.kind, result.failure.message


def csv(r: Any, text: str, **arguments: Any) -> dict[str, Any]:
    return ok(r, "parse_csv", text=text, **arguments)


def test_csv_quoting_bom_blank_lines_and_no_header(r: Any) -> None:
    parsed = csv(r, '\ufeffname,note\r\n"Smith, J","said ""hi""\nthen left"\r\n\r\nDoe,\r\n')
    assert parsed == {
        "columns": ["name", "note"],
        "rows": [["Smith, J", 'said "hi"\nthen left'], ["Doe", ""]],
        "row_count": 2,
        "truncated": False,
    }
    assert csv(r, "1;2\n3;4", delimiter=";", has_header=False) == {
        "columns": ["column_1", "column_2"],
        "rows": [["1", "2"], ["3", "4"]],
        "row_count": 2,
        "truncated": False,
    }
    assert csv(r, "a\tb\nx y\tz\n", delimiter="\t")["rows"] == [["x y", "z"]]
    assert csv(r, "") == {"columns": [], "rows": [], "row_count": 0, "truncated": False}
    assert csv(r, "only,a,header\n") == {
        "columns": ["only", "a", "header"],
        "rows": [],
        "row_count": 0,
        "truncated": False,
    }


def test_csv_type_inference(r: Any) -> None:
    row = csv(r, "a,b,c,d,e,f,g,h,i,j\n12,-3.5,1e3,007,,nan,0,.5, 42 ,1e999\n", infer_types=True)[
        "rows"
    ][0]
    assert row == [12, -3.5, 1000.0, "007", None, "nan", 0, 0.5, 42, "1e999"]
    assert type(row[0]) is int  # an integer stays an integer
    assert csv(r, "a\n12\n")["rows"] == [["12"]]  # strings unless asked


def test_csv_limits_and_malformed_input(r: Any) -> None:
    many = csv(r, "n\n" + "".join(f"{i}\n" for i in range(50)), max_rows=10)
    assert many["row_count"] == 50 and len(many["rows"]) == 10 and many["truncated"] is True
    kind, message = failure(r, "parse_csv", text="a,b\n1,2\n3\n")
    assert kind == "malformed" and "line 3 has 1 fields" in message
    assert failure(r, "parse_csv", text='a\n"unterminated\n')[0] == "malformed"
    assert (
        failure(r, "parse_csv", text="a\n" + "x" * 200_000 + "\n")[0] == "malformed"
    )  # csv's field limit
    assert failure(r, "parse_csv", text="a,b", delimiter='"')[0] == "invalid_input"
    assert failure(r, "parse_csv")[0] == "invalid_input"
    assert failure(r, "parse_csv", text="a", path="x.csv")[0] == "invalid_input"


def test_csv_from_a_file_in_the_workspace_only(root: Path, r: Any) -> None:
    (root / "d.csv").write_text("x,y\n1,2\n")
    assert ok(r, "parse_csv", path="d.csv", infer_types=True)["rows"] == [[1, 2]]
    assert failure(r, "parse_csv", path="../secret.csv")[0] == "outside_root"
    assert failure(r, "parse_csv", path="absent.csv")[0] == "not_found"
    (root / "bin.csv").write_bytes(b"\xff\xfe")
    assert failure(r, "parse_csv", path="bin.csv")[0] == "not_text"


DATA = '{"people": [{"name": "Ada", "age": 36}, {"name": "Alan", "age": 41}, {"name": "Grace", "age": 85}]}'


def query(r: Any, expression: str, text: str = DATA) -> Any:
    return ok(r, "query_json", expression=expression, text=text)["result"]


def test_jmespath_queries(root: Path, r: Any) -> None:
    assert query(r, "people[?age > `40`].name") == ["Alan", "Grace"]
    assert query(r, "{oldest: max_by(people, &age).name, total: sum(people[].age)}") == {
        "oldest": "Grace",
        "total": 162,
    }
    assert query(r, "nobody") is None
    (root / "d.json").write_text(DATA)
    assert ok(r, "query_json", expression="length(people)", path="d.json") == {"result": 3}


@pytest.mark.parametrize(
    ("expression", "kind"),
    [
        ("people[?age >", "invalid_expression"),  # incomplete
        ("people[?age > 40]", "invalid_expression"),  # a literal without backticks
        ("people.`", "invalid_expression"),  # lexer error
        ("(" * 4000 + "a" + ")" * 4000, "invalid_expression"),  # nested too deeply to parse
        ("a" + "|a" * 4000, "query_failed"),  # nested too deeply to run
        ("sum(people)", "query_failed"),  # wrong argument type
        ("length(people, people)", "query_failed"),  # wrong arity
        ("nosuchfunction(people)", "query_failed"),  # unknown function
        ("sort_by(people, &name)[0].name", None),  # fine
    ],
)
def test_jmespath_errors_are_declared(r: Any, expression: str, kind: str | None) -> None:
    result = r.call("query_json", {"expression": expression, "text": DATA})
    assert (result.failure.kind if result.failure else None) == kind, result.text()


def test_json_input_errors(r: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    kind, message = failure(r, "query_json", expression="a", text='{"a": 1,\n "b": }')
    assert kind == "not_json" and "line 2 column" in message
    assert failure(r, "query_json", expression="a", text='{"a": NaN}')[0] == "not_json"
    assert failure(r, "query_json", expression="a", text="[" * 100_000)[0] == "not_json"
    assert failure(r, "query_json", expression="a")[0] == "invalid_input"
    monkeypatch.setitem(sys.modules, "jmespath", None)  # a host without the optional library
    kind, message = failure(r, "query_json", expression="a", text="{}")
    assert kind == "unavailable" and "pip install jmespath" in message


def test_summary_statistics_agree_with_the_statistics_module(r: Any) -> None:
    rng = random.Random(5)
    values = [rng.uniform(-1000, 1000) for _ in range(1001)] + [3, 3, 7]
    got = ok(r, "summarize_numbers", values=values, percentiles=[0, 25, 50, 90, 100])
    assert got["count"] == len(values) and got["min"] == min(values) and got["max"] == max(values)
    assert math.isclose(got["mean"], statistics.fmean(values), rel_tol=1e-12)
    assert got["median"] == statistics.median(values)
    assert math.isclose(got["stdev"], statistics.stdev(values), rel_tol=1e-9)
    assert math.isclose(got["pstdev"], statistics.pstdev(values), rel_tol=1e-9)
    quartiles = statistics.quantiles(values, n=4, method="inclusive")
    by_percentile = {p["percentile"]: p["value"] for p in got["percentiles"]}
    assert math.isclose(by_percentile[25], quartiles[0]) and by_percentile[50] == got["median"]
    assert by_percentile[0] == min(values) and by_percentile[100] == max(values)
    assert math.isclose(
        by_percentile[90], statistics.quantiles(values, n=10, method="inclusive")[-1]
    )


def test_summary_edge_cases(r: Any) -> None:
    single = ok(r, "summarize_numbers", values=[4])
    assert single["stdev"] is None and single["pstdev"] == 0 and single["median"] == 4
    assert failure(r, "summarize_numbers", values=[1e308, 1e308])[0] == "not_finite"  # the sum
    assert (
        failure(r, "summarize_numbers", values=[1e200, -1e200])[0] == "not_finite"
    )  # the variance
    assert (
        _percentile([-1e308, 1e308], 50) == 0 and _percentile([-1e308, 1e308], 75) == 5e307
    )  # no b - a
    assert ok(r, "summarize_numbers", values=[2, 1], percentiles=[50, 75])["percentiles"] == [
        {"percentile": 50, "value": 1.5},
        {"percentile": 75, "value": 1.75},
    ]
    assert r.call("summarize_numbers", {"values": []}).failure.kind == "invalid_arguments"
    assert failure(r, "summarize_numbers", values=[1, float("inf")])[0] in (
        "not_finite",
        "invalid_arguments",
    )


def test_examples(r: Any) -> None:
    assert check_examples("data", r) == 3
