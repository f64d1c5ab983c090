"""Data tools: parse CSV, query JSON with JMESPath, summary statistics.

jmespath is imported inside query_json only, so the rest of the library (and `toolgen call`)
works without it; a host without it gets the declared `unavailable` error.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from typing import Any

from toolgen_builtin import ToolError
from toolgen_builtin.tools.parse_csv import ParseCsvArguments, ParseCsvResult, ParseCsvTool
from toolgen_builtin.tools.query_json import QueryJsonArguments, QueryJsonResult, QueryJsonTool
from toolgen_builtin.tools.summarize_numbers import (
    SummarizeNumbersArguments,
    SummarizeNumbersResult,
    SummarizeNumbersResultPercentilesItem,
    SummarizeNumbersTool,
)

from .files import Workspace

Field = str | int | float | None
_INTEGER = re.compile(r"[+-]?(?:0|[1-9][0-9]{0,99})")  # no leading zeros: "007" stays a string
_DECIMAL = re.compile(
    r"[+-]?(?:(?:0|[1-9][0-9]*)\.[0-9]*|\.[0-9]+|(?:0|[1-9][0-9]*))(?:[eE][+-]?[0-9]{1,4})?"
)


def _source(workspace: Workspace, path: str | None, text: str | None, what: str) -> str:
    """The text given inline or read from the workspace; exactly one of the two."""
    if (path is None) == (text is None):
        raise ToolError("invalid_input", f"give exactly one of path and text (the {what} itself)")
    if text is not None:
        return text
    assert path is not None
    return workspace.read_text(path)


def infer(value: str) -> Field:
    """A CSV field as a number when it is written as one, None when empty, else the string."""
    stripped = value.strip()
    if not stripped:
        return None
    if _INTEGER.fullmatch(stripped):
        return int(stripped)
    if len(stripped) <= 400 and _DECIMAL.fullmatch(stripped):
        number = float(stripped)
        if math.isfinite(number):
            return number
    return value


class ParseCsv(ParseCsvTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: ParseCsvArguments) -> ParseCsvResult:
        text = _source(self.workspace, arguments.path, arguments.text, "CSV").removeprefix("\ufeff")
        if arguments.delimiter in ('"', "\n", "\r"):
            raise ToolError("invalid_input", f"{arguments.delimiter!r} cannot be the delimiter")
        reader = csv.reader(
            io.StringIO(text, newline=""), delimiter=arguments.delimiter, strict=True
        )
        columns: list[str] | None = None
        width = 0
        rows: list[list[Field]] = []
        count = 0
        try:
            for row in reader:
                if not row:  # a blank line
                    continue
                if columns is None:
                    width = len(row)
                    columns = (
                        row
                        if arguments.has_header
                        else [f"column_{i}" for i in range(1, width + 1)]
                    )
                    if arguments.has_header:
                        continue
                if len(row) != width:
                    raise ToolError(
                        "malformed",
                        f"line {reader.line_num} has {len(row)} fields; the first "
                        f"row has {width} (check the delimiter and the quoting)",
                    )
                count += 1
                if len(rows) < arguments.max_rows:
                    rows.append([infer(v) for v in row] if arguments.infer_types else list(row))
        except csv.Error as exc:
            raise ToolError("malformed", f"line {reader.line_num}: {exc}") from None
        return ParseCsvResult(
            columns=columns or [], rows=rows, row_count=count, truncated=count > len(rows)
        )


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


class QueryJson(QueryJsonTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: QueryJsonArguments) -> QueryJsonResult:
        try:
            import jmespath
            from jmespath import exceptions
        except ImportError:
            raise ToolError(
                "unavailable",
                "query_json needs the jmespath package, which the host "
                "does not have (pip install jmespath)",
            ) from None
        text = _source(self.workspace, arguments.path, arguments.text, "JSON")
        try:
            data = json.loads(text, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            raise ToolError(
                "not_json", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
            ) from None
        except (ValueError, RecursionError) as exc:
            raise ToolError("not_json", f"not usable JSON: {exc}") from None
        try:
            expression = jmespath.compile(arguments.expression)
        except (exceptions.ParseError, exceptions.EmptyExpressionError, RecursionError) as exc:
            raise ToolError("invalid_expression", _message(exc)) from None
        try:
            found = expression.search(data)
        except exceptions.JMESPathError as exc:
            raise ToolError("query_failed", _message(exc)) from None
        except RecursionError:
            raise ToolError(
                "query_failed", "the data or the expression is nested too deeply"
            ) from None
        except (
            ValueError,
            TypeError,
        ) as exc:  # jmespath lets some through: a slice step of 0, max_by over mixed types
            raise ToolError("query_failed", _message(exc)) from None
        problem = _not_data(found)
        if problem:
            raise ToolError(
                "query_failed", f"the result cannot be sent as JSON: it holds {problem}"
            )
        return QueryJsonResult(result=found)


def _not_data(value: Any) -> str | None:
    """What in a JMESPath result JSON cannot carry, or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, float) and not math.isfinite(item):
            return "a number beyond the range of a 64-bit float (such as 1e999 in the data, or a sum of huge ones)"
        elif not (item is None or isinstance(item, (str, int, float))):  # bool is an int
            return "an expression reference (&...), which only functions such as sort_by take"
    return None


def _message(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "the expression is nested too deeply"
    return " ".join(str(exc).split()) or type(exc).__name__


def _check(value: float) -> float:
    if not math.isfinite(value):
        raise OverflowError
    return value


class SummarizeNumbers(SummarizeNumbersTool):
    def run(self, arguments: SummarizeNumbersArguments) -> SummarizeNumbersResult:
        values = sorted(arguments.values)
        n = len(values)
        if not all(map(math.isfinite, values)):
            raise ToolError("not_finite", "every value must be a finite number")
        try:
            total = _check(math.fsum(values))
            mean = _check(math.fsum(v / n for v in values))
            squares = math.fsum((v - mean) ** 2 for v in values)
            stdev = _check(math.sqrt(squares / (n - 1))) if n > 1 else None
            pstdev = _check(math.sqrt(squares / n))
            percentiles = [
                SummarizeNumbersResultPercentilesItem(
                    percentile=p, value=_check(_percentile(values, p))
                )
                for p in arguments.percentiles
            ]
        except OverflowError:
            raise ToolError("not_finite", "a result is too large for a 64-bit float") from None
        return SummarizeNumbersResult(
            count=n,
            sum=total,
            mean=mean,
            median=_percentile(values, 50),
            min=values[0],
            max=values[-1],
            stdev=stdev,
            pstdev=pstdev,
            percentiles=percentiles,
        )


def _percentile(ordered: list[float], p: float) -> float:
    """Linear interpolation between closest ranks (numpy's default, Excel's PERCENTILE.INC)."""
    rank = p / 100 * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    fraction = rank - low
    if fraction == 0:
        return ordered[low]
    return (
        ordered[low] * (1 - fraction) + ordered[high] * fraction
    )  # never overflows, unlike a + (b - a) * f
