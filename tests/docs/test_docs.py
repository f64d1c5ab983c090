"""The docs stay readable by anyone with only this repository, and the architecture map stays complete.

Docs, generator sources, templates, specs, implementations and tests never mention issue
numbers, paths outside the repository (a shared reference folder, its corpus) or paths of
one machine: a reader has none of those. And every module under generator/toolgen has its
row in the module map of docs/architecture.md, and every row names a module that exists.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.generation import REPO

FORBIDDEN = {
    "an issue number": re.compile(r"\bissues?\s*#?\d+|(?<![\w&/:.#])#\d+\b", re.IGNORECASE),
    "a path outside the repository": re.compile(
        r"\.\./shared\b|\bshared/(?:reference|corpus|DESIGN)|\breference/[\w-]+\.md|\bDESIGN\.md"
    ),
    "a machine path": re.compile(r"(?<![\w.~-])/(?:work|root|tmp|home|Users)/"),
}
TEXT = {".md", ".py", ".jinja", ".yaml", ".yml", ".json", ".toml", ".txt"}
# Folders whose text is read; generated output and pinned goldens are checked at their source.
ROOTS = ("docs", "generator", "templates", "schemas", "implementations", "tests", "benchmarks")
SKIP_PARTS = {
    "expected",
    "__pycache__",
    "json-schema-test-suite",
}  # the last: others' text, kept unchanged
THIS = Path(__file__).resolve()


def checked_files() -> list[Path]:
    files = [REPO / "README.md", REPO / "CONTRIBUTING.md", REPO / "pyproject.toml"]
    for root in ROOTS:
        files += [
            p
            for p in sorted((REPO / root).rglob("*"))
            if p.is_file() and p.suffix in TEXT and not SKIP_PARTS & set(p.relative_to(REPO).parts)
        ]
    return [p for p in files if p.resolve() != THIS and p.is_file()]


def findings(path: Path) -> list[str]:
    out = []
    for number, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1):
        for what, pattern in FORBIDDEN.items():
            match = pattern.search(line)
            if match:
                out.append(
                    f"{path.relative_to(REPO).as_posix()}:{number}: {what} ({match.group(0)!r}): {line.strip()}"
                )
    return out


def test_the_patterns_catch_what_they_are_for() -> None:
    caught = [
        "see issue 5",
        "(issue 4)",
        "fixed in #12",
        "Issues #731, #1821",
        "../shared/corpus/x.jsonl",
        "shared/reference/providers.md",
        "reference/providers.md section 8",
        "/work/venv/bin/python",
        "`/root/.cache`",
        "--profile /tmp/stages.prof",
        "see DESIGN.md",
    ]
    passed = [
        "issue data",
        "every issue, sorted by path",
        "the issue's baseline",
        f"{0x7F:#04x}",
        "tag:yaml.org,2002:bool#1.1",
        "&#39;",
        "docs/performance.md",
        "the shared corpus",
        "~/.cache/toolgen",
        "generator/toolgen/runtime/",
        "https://example.com/tmp/x",
    ]
    for text in caught:
        assert any(p.search(text) for p in FORBIDDEN.values()), text
    for text in passed:
        assert not any(p.search(text) for p in FORBIDDEN.values()), text


def test_docs_and_sources_mention_no_issue_numbers_outside_paths_or_machine_paths() -> None:
    files = checked_files()
    assert any(p.name == "architecture.md" for p in files) and any(p.suffix == ".py" for p in files)
    problems = [finding for path in files for finding in findings(path)]
    assert not problems, "say what is meant instead:\n" + "\n".join(problems)


def module_map() -> list[str]:
    text = (REPO / "docs" / "architecture.md").read_text("utf-8")
    section = re.search(r"^## Module map$(.*?)(?=^## )", text, re.M | re.S)
    assert section, "docs/architecture.md has no '## Module map' section"
    return re.findall(r"^\| `([^`]+\.py)` \|", section.group(1), re.M)


def test_the_module_map_names_every_module_once() -> None:
    package = REPO / "generator" / "toolgen"
    on_disk = {
        p.relative_to(package).as_posix()
        for p in package.rglob("*.py")
        if "__pycache__" not in p.parts
    }
    rows = module_map()
    repeated = sorted({row for row in rows if rows.count(row) > 1})
    missing, stale = sorted(on_disk - set(rows)), sorted(set(rows) - on_disk)
    assert not (missing or stale or repeated), (
        "docs/architecture.md, '## Module map' is out of date (paths relative to generator/toolgen):\n"
        f"add a row for: {missing}\nremove or rename the row of: {stale}\nlisted twice: {repeated}"
    )


# A path under tests/ as docs and comments write it. Before a placeholder (`<case>`,
# `test_builtin_*.py`, `{previous,current}`) only the folder must exist.
TEST_PATH = re.compile(r"(?<![\w/.-])(tests/[\w./-]*)([<*{]?)")
# Where test paths are written for readers (generator sources are not: their owners check them).
PATH_DOCS = {"README.md", "CONTRIBUTING.md", "pyproject.toml", "docs", "benchmarks", "tests"}


def test_paths_under_tests_that_docs_and_comments_name_exist() -> None:
    files = [p for p in checked_files() if p.relative_to(REPO).parts[0] in PATH_DOCS]
    files += [REPO / ".ci" / "run", THIS]
    assert len(files) > 100
    stale = []
    for path in files:
        for number, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1):
            for match in TEST_PATH.finditer(line):
                named, placeholder = match.group(1).rstrip(".,:;"), match.group(2)
                if placeholder:
                    named = named.rpartition("/")[0]
                if named != "tests/test_x.py" and not (REPO / named).exists():
                    stale.append(f"{path.relative_to(REPO).as_posix()}:{number}: {named}")
    assert not stale, "these paths moved or never existed:\n" + "\n".join(stale)
