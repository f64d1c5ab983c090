"""runtime/pointer.py owns JSON Pointer escaping (RFC 6901): it round-trips every key, and no
other module of generator/toolgen writes `~0` or `~1` itself."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.generation import REPO
from tests.support.owners import spelt_outside
from toolgen.runtime.pointer import escape, tokens, unescape
from toolgen.schema import pointer

PACKAGE = REPO / "generator" / "toolgen"


@settings(max_examples=200)
@given(st.lists(st.text(alphabet="~/01a", max_size=6), max_size=4))
def test_escaped_keys_come_back(keys: list[str]) -> None:
    joined = "".join("/" + escape(key) for key in keys)
    assert tokens(joined) == keys
    assert all(unescape(escape(key)) == key for key in keys)


def test_the_escaping_of_the_rfc() -> None:
    assert escape("a/b~c") == "a~1b~0c" and escape(3) == "3"
    assert unescape("~01") == "~1"  # `~0` is read last: `~01` is the key `~1`, not `/`
    assert tokens("") == [] and tokens("/") == [""]


def test_the_generator_escapes_with_the_runtime() -> None:
    assert pointer.escape is escape and pointer.unescape is unescape
    assert pointer.child("#/a", "b/c") == "#/a/b~1c"


def test_no_module_escapes_a_pointer_itself() -> None:
    found = spelt_outside((PACKAGE / "runtime" / "pointer.py",), frozenset({"~0", "~1"}), PACKAGE)
    assert found == [], "escape with toolgen.runtime.pointer (the runtime: `from ..pointer`)"
