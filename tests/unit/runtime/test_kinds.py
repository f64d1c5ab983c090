"""runtime/kinds.py owns the provider names and the content kinds: nothing else under
generator/toolgen spells them, and everything that lists them lists the same ones."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from tests.support.generation import REPO
from tests.support.owners import literals, spelt_outside
from toolgen.runtime import kinds

PACKAGE = REPO / "generator" / "toolgen"
OWNER = PACKAGE / "runtime" / "kinds.py"
# The importers read files named after the providers' formats ("openai", "mcp", ...): a
# format name, another fact, that only shares the spelling.
FORMATS = PACKAGE / "importers"


def collections_of(source: str, wanted: frozenset[str]) -> list[int]:
    """Lines of each tuple, list or set display holding two or more strings of `wanted`: a
    list of kinds written out again."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.Tuple, ast.List, ast.Set))
        and sum(isinstance(e, ast.Constant) and e.value in wanted for e in node.elts) >= 2
    ]


def sources() -> list[Path]:
    return [
        p
        for p in sorted(PACKAGE.rglob("*.py"))
        if p != OWNER and FORMATS not in p.parents and "__pycache__" not in p.parts
    ]


def test_no_provider_name_is_spelt_outside_its_owner() -> None:
    found = spelt_outside((OWNER, FORMATS), frozenset(kinds.PROVIDERS), PACKAGE)
    assert found == [], "use toolgen.runtime.kinds (the runtime: `from .. import kinds`)"


def test_no_list_of_content_kinds_is_written_outside_its_owner() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sources()
        for line in collections_of(path.read_text("utf-8"), frozenset(kinds.CONTENT))
    ]
    assert found == [], "use kinds.CONTENT or kinds.MEDIA"


def test_the_checks_see_a_planted_literal() -> None:
    planted = '"""anthropic"""\nTARGETS = {"gemini": 1}\nMEDIA = ("image", "audio")\n'
    assert literals(planted, frozenset(kinds.PROVIDERS)) == [(2, "gemini")]  # a docstring is prose
    assert collections_of(planted, frozenset(kinds.CONTENT)) == [3]


def test_every_provider_has_an_exporter_an_adapter_and_a_media_table() -> None:
    from toolgen.providers import TARGETS
    from toolgen.runtime.providers.adapters import ADAPTERS
    from toolgen.runtime.providers.answers import TAKES

    assert tuple(TARGETS) == tuple(ADAPTERS) == kinds.PROVIDERS
    assert set(TAKES) == set(kinds.PROVIDERS)
    assert all(takes <= set(kinds.MEDIA) for takes in TAKES.values())


def test_the_spec_format_takes_the_content_kinds() -> None:
    schema = json.loads((PACKAGE / "spec" / "schema.json").read_text("utf-8"))
    enums = [
        node["items"]["enum"]
        for node in _nodes(schema)
        if isinstance(node.get("items"), dict) and "resource_link" in node["items"].get("enum", ())
    ]
    assert enums == [list(kinds.CONTENT)]
    assert set(kinds.MEDIA) < set(kinds.CONTENT)


def test_the_generator_and_the_runtime_read_one_module() -> None:
    """toolgen.leaves loads the leaf without the runtime's package; it is the same module the
    runtime's own imports get, not a copy with its own values."""
    from toolgen.leaves import kinds as loaded
    from toolgen.runtime.providers import adapters

    assert loaded is kinds
    assert adapters.kinds is kinds


def _nodes(value: object) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.append(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found
