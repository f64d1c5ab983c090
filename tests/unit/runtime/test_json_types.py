"""runtime/types.py owns the JSON-type test (`is_json_type`, `json_type`): what JSON Schema's
`type` means of a Python value read from JSON, bool being no integer or number though Python
makes it an int. No other module of generator/toolgen writes that test itself."""

from __future__ import annotations

import ast
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.generation import REPO
from toolgen.runtime.types import is_json_type, json_type
from toolgen.schema.keywords import JSON_TYPES

PACKAGE = REPO / "generator" / "toolgen"
OWNER = PACKAGE / "runtime" / "types.py"

VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner, max_size=2)
    ),
    max_leaves=4,
)


@settings(max_examples=300)
@given(VALUES)
def test_a_value_is_of_its_own_type_and_of_no_other_but_number(value: object) -> None:
    own = json_type(value)
    held = {name for name in JSON_TYPES if is_json_type(value, name)}
    assert held == ({own, "number"} if own == "integer" else {own})


def test_bool_is_no_number_and_a_whole_float_an_integer() -> None:
    assert not is_json_type(True, "integer") and not is_json_type(False, "number")
    assert is_json_type(True, "boolean") and not is_json_type(1, "boolean")
    assert is_json_type(2.0, "integer") and not is_json_type(2.5, "integer")
    assert is_json_type(2.5, "number") and not is_json_type("1", "number")
    assert not is_json_type((1,), "array") and not is_json_type({1}, "object")
    assert not is_json_type(math.nan, "integer")


def _bool_excluded_number_tests(source: str) -> list[int]:
    """Lines of each `isinstance(x, (int, float)) and not isinstance(x, bool)`: an `and` of an
    isinstance against int and float beside a `not isinstance(..., bool)`."""

    def isinstance_of(node: ast.AST, names: set[str]) -> bool:
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance"):
            return False
        kinds = node.args[1:]
        found = {getattr(e, "id", None) for k in kinds for e in getattr(k, "elts", [k])}
        return names <= found

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            numeric = any(isinstance_of(v, {"int", "float"}) for v in node.values)
            no_bool = any(
                isinstance(v, ast.UnaryOp)
                and isinstance(v.op, ast.Not)
                and isinstance_of(v.operand, {"bool"})
                for v in node.values
            )
            if numeric and no_bool:
                found.append(node.lineno)
    return found


def test_no_module_writes_the_number_test_itself() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != OWNER and "__pycache__" not in path.parts
        for line in _bool_excluded_number_tests(path.read_text("utf-8"))
    ]
    assert found == [], 'use toolgen.runtime.types.is_json_type(value, "number" or "integer")'


def test_the_check_sees_a_planted_number_test() -> None:
    planted = "ok = isinstance(v, (int, float)) and not isinstance(v, bool)\n"
    assert _bool_excluded_number_tests(planted) == [1]
    assert _bool_excluded_number_tests("ok = isinstance(v, int) or isinstance(v, bool)\n") == []
    # a Python int (a count) is another test: 2.0 is a JSON integer but no count
    assert (
        _bool_excluded_number_tests("ok = isinstance(v, int) and not isinstance(v, bool)\n") == []
    )
