"""The runtime's cheap duplicate-key detector (`payload.duplicate_key`: colons counted against
what pydantic-core read) against the plain answer: `json.loads` with a hook on each object's
pairs. For any JSON text with objects nested in objects and arrays, keys spelt plainly or with
escapes, colons inside strings, the two agree on whether some object holds a key twice."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from toolgen.runtime.validation.payload import duplicate_key

# Few distinct keys, so that duplicates are common; some hold a colon or need an escape.
KEYS = st.sampled_from(["a", "b", "a:b", ":", "é", 'q"'])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["x", "x:y", "::", "\\"])
)


def _key(key: str, escaped: bool) -> str:
    """A key as JSON text, plainly or with every character escaped (\\uXXXX)."""
    if not escaped:
        return json.dumps(key, ensure_ascii=False)
    return '"' + "".join(f"\\u{ord(c):04x}" for c in key) + '"'


def _texts(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    member = st.tuples(KEYS, st.booleans(), children).map(lambda m: f"{_key(m[0], m[1])}: {m[2]}")
    objects = st.lists(member, max_size=4).map(lambda ms: "{" + ", ".join(ms) + "}")
    arrays = st.lists(children, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")
    return st.one_of(objects, arrays)


TEXTS = st.recursive(SCALARS.map(json.dumps), _texts, max_leaves=12).filter(
    lambda t: t.startswith("{")
)


def _has_duplicate(text: str) -> bool:
    def once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise KeyError(keys)
        return dict(pairs)

    try:
        json.loads(text, object_pairs_hook=once)
    except KeyError:
        return True
    return False


@given(TEXTS)
def test_the_cheap_detector_agrees_with_json_loads(text: str) -> None:
    assert (duplicate_key(text) is not None) == _has_duplicate(text), text
    assert (duplicate_key(text.encode("utf-8")) is not None) == _has_duplicate(text), text
