"""The generated contract tests, run over every built-in tool (toolgen_builtin.testing.ContractTests).

Each example gets a fresh registry over a freshly seeded workspace (the fixture returns a
factory), so a failure shrinks and replays the same way. The process tools run commands
from a small, harmless vocabulary instead of random text. fetch_url and check_website_status
reach no host (the policy allows none), so every call fails with the declared
`host_not_allowed`: no network. web_search asks a backend in memory (`CannedSearch`), and
undo_edit starts from two remembered changes of src/app.py (the `seed` hook). The browser is
not enabled (it would start Chromium for every example), so the kit skips its tests ("the
registry does not hold browser"); tests/functional/builtin/test_builtin_browser.py tests it against a local site.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.provisional import urls

from implementations import ProcessPolicy, ReadFile, SearchHit, Workspace, registry
from tests.support import builtin_support  # noqa: F401 - puts generated/ and the repository on sys.path
from toolgen_builtin import Registry, build_registry
from toolgen_builtin.testing import (
    ContractTests,
    ContractViolation,
    check_idempotent,
    check_results,
    contract,
)
from toolgen_builtin.tools.read_file import ReadFileArguments, ReadFileResult

SEED = {
    "README.md": "# Demo\n\nA workspace for the contract tests.\n",
    "src/app.py": "def old_name(x):\n    return x\n",
    "notes/log.md": "- step 1 done\n",
    "data/items.csv": "name,qty\nbolt,12\nnut,\n",
    "data/items.json": '{"items": [{"name": "bolt", "qty": 12}]}',
}
COMMANDS = [
    "true",
    "false",
    "exit 3",
    "echo hi",
    "pwd",
    "ls -a",
    "cat README.md",
    "cat absent",
    "echo oops >&2",
    "printf 'a\\nb'",
    "printf '\\377\\376'",
    "head -c 3000 /dev/zero",
]
PROGRAMS = [
    "print(1)",
    "print(sum(range(10)))",
    "import os; print(os.getcwd())",
    "raise SystemExit(2)",
    "raise ValueError('x')",
    "import sys; sys.stdout.buffer.write(bytes(range(256)))",
    "pass",
]
# Random text reaches only error paths (a random path does not exist); these reach the rest.
PATHS = [
    *SEED,
    ".",
    "src",
    "notes",
    "data",
    "absent.txt",
    "new/file.md",
    "../outside",
    "/etc/hostname",
    "src/../README.md",
    "notes/",
]
TEXTS = ["def old_name(x):", "x", "return x\n", "\n", "# Demo", "absent", "bolt,12"]
EXPRESSIONS = [
    "items[?qty > `1`].name",
    "length(items)",
    "sort_by(items, &qty)",
    "max_by(@, &a)",
    "[0:10:0]",
    "&a",
    "[&a]",
    "to_number('1e999')",
    "sum(@)",
    "avg(items[].qty)",
    "foo(@)",
    "sort(@)",
    "keys(@)",
    "@[::-1]",
    "map(&a, @)",
    "to_string(@)",
    "*.*",
    "a || b && !c",
]
DOCUMENTS = [
    '{"items": [{"name": "bolt", "qty": 12}, {"name": "nut", "qty": 1}]}',
    '[{"a": 1}, {"a": "x"}]',
    "[1e308, 1e308]",
    "[1e999]",
    "[1, 2, 3]",
    '"text"',
    "null",
    "{}",
    "[",
    "NaN",
]
CSV = [
    "name,qty\nbolt,12\nnut,\n",
    "a;b\r\n1;2\r\n",
    'a,b\n"x,y",2\n',
    "a,b\n1\n",
    '"unclosed\n',
    "\ufeffa\n1e999\n",
    "x\n007\n-0\n.5\n1e5\n",
]
URLS = [
    "https://docs.python.org/3/library/csv.html",
    "http://example.com:8080/a?b=c#d",
    "HTTPS://EXAMPLE.COM",
    "http://user:pw@example.com/",
    "ftp://example.com/",
    "http://[::1]:80/",
    "http://example.com:99999/",
    "https://bücher.example/",
    "http://",
    "//example.com/x",
    " https://example.com ",
]
PATTERNS = [
    "*",
    "**",
    "**/*.md",
    "src/*.py",
    "*.py",
    "data/*",
    "**/",
    ".*",
    "[a-z]*",
    "notes/**/*.md",
]


def vocabulary(words: list[str]) -> st.SearchStrategy[str]:
    return st.sampled_from(words) | st.text(
        min_size=1
    )  # every field it replaces has minLength 1 or none


def seed(root: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)
    for relative, text in SEED.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, "utf-8")


class CannedSearch:
    """A search backend in memory: the same hits for the same query, some of them on the `site:` asked."""

    def search(self, query: str, limit: int, *, language: str | None = None) -> Sequence[SearchHit]:
        hits = [
            SearchHit(
                f"{query} {n}", f"https://example.org/{n}", f"about {query} in {language or 'any'}"
            )
            for n in range(limit + 2)
        ]
        if " site:" in query:
            hits.insert(
                1, SearchHit("on the site", f"https://{query.rsplit('site:', 1)[1]}/page", "")
            )
        return [*hits, hits[0], SearchHit("not the web", "mailto:x@example.org")]


class TestBuiltinContracts(ContractTests):
    # 25 examples per tool and check: about 4 s for the 47 tests (50: about 7 s; hypothesis's
    # default 100: about 10 s). The vocabularies below make few examples enough to reach the
    # interesting paths; runs of 400 to 1500 examples per tool found nothing more.
    max_examples = 25

    @pytest.fixture
    def registry(self, tmp_path: Path) -> Callable[[], Registry]:
        root = tmp_path / "workspace"
        policy = ProcessPolicy(max_timeout_s=5.0, max_output_bytes=1000)

        def fresh() -> Registry:
            seed(root)
            return registry(root, processes=policy, search=CannedSearch(), enable_browser=False)

        return fresh

    def seed(self, tool: str, registry: Registry) -> None:
        if tool == "undo_edit":  # two changes to undo (a fresh workspace remembers none)
            registry.invoke(
                "edit_file", {"path": "src/app.py", "old_text": "old_name", "new_text": "new_name"}
            )
            registry.invoke(
                "insert_lines", {"path": "src/app.py", "after_line": 0, "text": "import math"}
            )

    def overrides(self, tool: str) -> Mapping[str, st.SearchStrategy[Any]]:
        fields = set(self.contracts[tool].info.arguments.model_fields)
        out: dict[str, st.SearchStrategy[Any]] = {}
        if tool == "run_shell":
            out["command"] = st.sampled_from(COMMANDS)
        if tool == "run_python":
            out["code"] = st.sampled_from(PROGRAMS)
        for name, words in (
            ("path", PATHS),
            ("cwd", PATHS),
            ("old_text", TEXTS),
            ("pattern", PATTERNS),
        ):
            if name in fields:
                out[name] = vocabulary(words)
        if tool in ("query_json", "parse_csv"):  # exactly one of text and path, mostly
            out["path"] = st.none() | out["path"]
        if tool == "query_json":
            out |= {
                "expression": vocabulary(EXPRESSIONS),
                "text": st.none() | vocabulary(DOCUMENTS),
            }
        if tool == "parse_csv":
            out["text"] = st.none() | vocabulary(CSV)
        if tool in ("fetch_url", "check_website_status"):
            out["url"] = st.sampled_from(URLS) | urls() | st.text(min_size=1)
        if tool == "insert_lines":
            out["after_line"] = st.integers(0, 4) | st.integers(min_value=0)
        if tool in ("run_shell", "run_python"):
            out["cwd"] = st.sampled_from(PATHS)  # never a random directory name
        return out


def test_every_built_in_tool_has_a_contract() -> None:
    from toolgen_builtin import TOOL_NAMES

    assert sorted(TestBuiltinContracts.contracts) == sorted(TOOL_NAMES)
    assert len(TOOL_NAMES) == 20


def test_query_json_results_are_json_whatever_the_expression(tmp_path: Path) -> None:
    """Found by the kit: `&a` gave a result no host could serialize, `[::0]` and max_by over mixed
    types raised plain exceptions, and an infinite number went out as null."""
    from toolgen_builtin.testing import check_results, contract

    seed(tmp_path)
    check_results(
        registry(tmp_path),
        contract("query_json"),
        settings=settings(max_examples=60, database=None),
        overrides={
            "expression": st.sampled_from(["&a", "[&a]", "[::0]", "max_by(@, &a)", "sum(@)", "@"]),
            "text": st.sampled_from(['[{"a": 1}, {"a": "x"}]', "[1e308, 1e308]", "[1e999]"]),
            "path": st.none(),
        },
    )


# --- Planted bugs in built-in tools: the generated kit finds each and shrinks it -------------


class WrongType(ReadFile):
    """total_lines as a string once a file has more than one line."""

    def run(self, arguments: ReadFileArguments) -> Any:
        result = super().run(arguments).model_dump()
        return (
            {**result, "total_lines": str(result["total_lines"])}
            if result["total_lines"] > 1
            else result
        )


class Undeclared(ReadFile):
    """A plain exception (not a declared ToolError) for a start_line past 3."""

    def run(self, arguments: ReadFileArguments) -> ReadFileResult:
        if arguments.start_line > 3:
            raise IndexError("start_line out of range")
        return super().run(arguments)


class IgnoresStartLine(ReadFile):
    """Idempotent by its spec, but reads on from where the previous call stopped when
    start_line is left out, instead of from the default line 1."""

    def __init__(self, workspace: Workspace) -> None:
        super().__init__(workspace)
        self.cursor = 1

    def run(self, arguments: ReadFileArguments) -> ReadFileResult:
        start = arguments.start_line if "start_line" in arguments.model_fields_set else self.cursor
        result = super().run(arguments.model_copy(update={"start_line": start}))
        self.cursor = result.end_line + 1
        return result


def planted(tmp_path: Path, implementation: type[ReadFile]) -> Callable[[], Registry]:
    def fresh() -> Registry:
        seed(tmp_path)
        return build_registry(implementation(Workspace(tmp_path)))

    return fresh


def violation(
    check: Callable[..., None], tmp_path: Path, implementation: type[ReadFile]
) -> ContractViolation:
    quick = settings(max_examples=300, database=None)
    with pytest.raises(ContractViolation) as caught:
        check(
            planted(tmp_path, implementation),
            contract("read_file"),
            settings=quick,
            overrides={"path": st.sampled_from(["README.md", "absent.txt"])},
        )
    return caught.value


def test_a_planted_wrong_typed_field_is_found_and_shrunk(tmp_path: Path) -> None:
    exc = violation(check_results, tmp_path, WrongType)
    assert exc.problem == "invalid_result" and exc.arguments == {"path": "README.md"}
    assert 'toolgen call read_file \'{"path": "README.md"}\'' in str(exc)
    assert "'3' is not of type 'integer'" in str(exc)


def test_a_planted_undeclared_exception_is_found_and_shrunk(tmp_path: Path) -> None:
    exc = violation(check_results, tmp_path, Undeclared)
    assert exc.problem == "unexpected_exception" and "IndexError" in str(exc)
    assert exc.arguments == {"path": "README.md", "start_line": 4}  # the smallest start_line past 3


def test_a_planted_hidden_state_in_an_idempotent_tool_is_found(tmp_path: Path) -> None:
    exc = violation(check_idempotent, tmp_path, IgnoresStartLine)
    assert exc.problem == "not_idempotent"
    assert exc.calls[0] == exc.calls[-1] == {"path": "README.md"}  # start_line left out, twice
    assert len(str(exc).splitlines()) >= 4 and str(exc).count("toolgen call read_file") == len(
        exc.calls
    )
