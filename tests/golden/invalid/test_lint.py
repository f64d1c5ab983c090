"""Invalid specs: each case pins its diagnostics and proves that nothing is written.

tests/golden/invalid/<case>/specs/ holds the bad spec files; expected.txt is the exact output
of `toolgen lint --specs <case>/specs` (`file:line:col: severity[rule]: message`, hint
lines, summary). `toolgen generate` must print the same diagnostics on stderr, exit 1,
and leave an output directory generated earlier (from tests/golden/invalid/_valid) exactly as
it was: same paths, same bytes, same modification times. Cases with only warnings exit 0.

Regenerate the expected files with TOOLGEN_UPDATE_GOLDEN=1, then read the diff.
"""

from __future__ import annotations

import re
import resource
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.generation import UPDATE_GOLDEN, generate
from toolgen.cli import main
from toolgen.pipeline import check_specs

INVALID = Path(__file__).parent
CASES = sorted(
    p for p in INVALID.iterdir() if (p / "specs").is_dir() and not p.name.startswith("_")
)
# Inputs that crashed (segfault) or could exhaust memory: always run in a child process,
# so that a regression fails its test instead of killing the test session.
HAZARDS = {"alias_bomb", "deep_block", "deep_flow", "recursive_alias"}
FAST_FAIL_SECONDS = 5.0  # a loose guard against exponential work, in CPU seconds: not a benchmark
# Every rule a spec author can trip over has at least one case.
RULES = {
    "syntax", "spec-format", "unknown-key", "name-invalid", "name-collision", "unknown-type", "json-schema",
    "parameters-not-object", "required-missing-property", "default-invalid", "example-invalid", "ref-unresolved",
    "ref-remote", "ref-outside-root", "description-missing", "unknown-keyword", "deprecation-invalid",
    "description-purpose", "description-parameters", "description-returns", "description-errors",
    "description-length", "namespace-size", "pattern-invalid", "approval-without-effect",
    "guard-invalid",
}  # fmt: skip


def run(args: list[str], cwd: Path, *, isolated: bool) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the CLI, in a child process or in this one."""
    if isolated:
        done = subprocess.run(
            [sys.executable, "-m", "toolgen", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return done.returncode, done.stdout, done.stderr
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def expected(case: Path, actual: str) -> str:
    path = case / "expected.txt"
    if UPDATE_GOLDEN:
        path.write_text(actual, "utf-8")
    assert path.is_file(), f"{path} is missing; run with TOOLGEN_UPDATE_GOLDEN=1 and review it"
    return path.read_text("utf-8")


SUMMARY = re.compile(r"(\d+) error\(s\), (\d+) warning\(s\)(?:, (\d+) note\(s\))?")


def exit_code(text: str) -> int:
    """1 when the summary line counts errors, 0 when there are only warnings and notes."""
    summary = SUMMARY.fullmatch(text.rstrip("\n").rsplit("\n", 1)[-1])
    assert summary, f"no summary line in {text!r}"
    return 1 if int(summary[1]) else 0


def without_notes(listing: str) -> str:
    """What `generate` prints of `lint --notes`'s listing: the notes counted, not listed (and
    nothing at all when there are only notes)."""
    lines = listing.rstrip("\n").split("\n")
    summary = SUMMARY.fullmatch(lines[-1])
    assert summary
    if not (int(summary[1]) or int(summary[2])):
        return ""
    kept: list[str] = []
    for line in lines[:-1]:
        if line.startswith("  hint: ") and kept and kept[-1] == "":
            continue  # the hint of a note
        kept.append("" if re.match(r"^\S+:\d+:\d+: note\[", line) else line)
    notes = "; `toolgen lint --notes` lists the notes" if summary[3] else ""
    return "\n".join([line for line in kept if line] + [lines[-1] + notes]) + "\n"


def snapshot(root: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every path under root with its modification time, and its bytes when it is a file."""
    return {
        p.relative_to(root).as_posix(): (
            p.lstat().st_mtime_ns,
            p.read_bytes() if p.is_file() else None,
        )
        for p in sorted(root.rglob("*"))
    }


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no pyproject.toml above: the CLI's defaults, then our flags
    monkeypatch.setenv("TOOLGEN_CACHE_DIR", str(tmp_path / "cache"))  # nothing from earlier runs


@pytest.fixture(scope="session")
def valid_output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("valid") / "out"
    generate(INVALID / "_valid" / "specs", out, "p")
    return out


def _cpu_s() -> float:
    """CPU seconds of this process and its finished children: what the work cost, however
    loaded the machine (wall time is not a property of the code)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_lint_reports_the_expected_diagnostics(case: Path, tmp_path: Path) -> None:
    started = _cpu_s()
    code, out, err = run(
        ["lint", "--notes", "--specs", str(case / "specs")], tmp_path, isolated=case.name in HAZARDS
    )
    elapsed = _cpu_s() - started
    assert out == expected(case, out)
    assert (code, err) == (exit_code(out), "")
    assert elapsed < FAST_FAIL_SECONDS


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_generate_prints_the_diagnostics_and_writes_nothing(
    case: Path, tmp_path: Path, valid_output: Path
) -> None:
    out = tmp_path / "out"
    shutil.copytree(valid_output, out)
    before = snapshot(out)
    assert "p/tools/get_weather.py" in before
    args = ["generate", "--specs", str(case / "specs"), "--out", str(out), "--package", "p"]
    code, stdout, stderr = run(args, tmp_path, isolated=case.name in HAZARDS)
    diagnostics = (case / "expected.txt").read_text("utf-8")
    assert stderr == without_notes(diagnostics)
    assert code == exit_code(diagnostics)
    if code == 1:
        assert stdout == ""
        assert snapshot(out) == before
    else:  # warnings only: generate goes ahead
        assert "tools ->" in stdout


def test_every_rule_has_a_case() -> None:
    seen = {
        m[1]
        for case in CASES
        for m in re.finditer(
            r"^\S+:\d+:\d+: \w+\[([\w-]+)\]", (case / "expected.txt").read_text("utf-8"), re.M
        )
    }
    assert RULES <= seen, f"no invalid case for {sorted(RULES - seen)}"


def test_remote_ref_is_refused_without_touching_the_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("network access in a test")

    for name in ("getaddrinfo", "create_connection"):
        monkeypatch.setattr(socket, name, refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    with pytest.raises(OSError):  # the trap works
        socket.create_connection(("example.com", 443))
    attempts.clear()

    diagnostics, _ = check_specs(INVALID / "ref_remote" / "specs")
    assert [(d.rule, d.line, d.col) for d in diagnostics] == [("ref-remote", 8, 13)]
    assert attempts == []


def test_outside_root_target_exists_and_is_still_refused() -> None:
    case = INVALID / "ref_outside_root"
    assert (case / "outside.yaml").is_file()  # refused for where it is, not for being missing
    diagnostics, tools = check_specs(case / "specs")
    assert [d.rule for d in diagnostics] == ["ref-outside-root"]
    assert tools == []


@pytest.mark.parametrize(
    "specs", ["schemas", "tests/golden/cases/providers/specs", "tests/golden/cases/refs/specs"]
)
def test_generate_reports_what_lint_reports(specs: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """build() exports once and reports the exports' notes itself; the warnings must be lint's."""
    from tests.support.generation import REPO
    from toolgen.config import BuildOptions
    from toolgen.pipeline import build

    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    linted, _ = check_specs(REPO / specs)
    built = build(REPO / specs, BuildOptions(package="p"))
    assert built.ok and any(d.rule.startswith("provider-") for d in linted)
    assert built.diagnostics == linted


def test_a_misspelt_list_value_is_named_by_its_list(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "t.yaml").write_text(
        "name: t\ndescription: A tool.\nflags: [idempotant]\n"
        "parameters: {type: object, properties: {}}\n",
        "utf-8",
    )
    (specs / "u.yaml").write_text(
        "nmae: u\ndescription: A tool.\nparameters: {type: object, properties: {}}\n", "utf-8"
    )
    texts = [d.text() for d in check_specs(specs)[0]]
    assert (
        "t.yaml:3:9: error[spec-format]: 'idempotant' is not a valid value in flags\n"
        "  hint: did you mean 'idempotent'?" in texts
    )
    # A misspelt `name` never makes a file vanish: both the missing key and the typo are said.
    assert any(t.startswith("u.yaml:1:1: error[spec-format]: 'name' is required") for t in texts)
    assert any("unknown key 'nmae'" in t and "did you mean 'name'?" in t for t in texts)


def test_enum_values_the_type_refuses_are_reported(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "t.yaml").write_text(
        "name: t\ndescription: A tool.\nparameters:\n  type: object\n  properties:\n"
        "    a: {type: string, enum: [1, x], description: a}\n"
        "    b: {type: integer, const: y, description: b}\n",
        "utf-8",
    )
    found = {
        (d.line, d.rule, d.message) for d in check_specs(specs)[0] if d.rule == "enum-type-mismatch"
    }
    assert found == {
        (6, "enum-type-mismatch", 'enum values of another type than "string" can never be sent: 1'),
        (7, "enum-type-mismatch", 'no value of const is of type "integer": no value can be sent'),
    }


def test_a_default_beside_a_ref_is_checked_against_what_it_refers_to(tmp_path: Path) -> None:
    """A null default for an object class gave a module mypy refuses (`x: D = None`)."""
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "t.json").write_text(
        '{"$defs": {"D": {"type": "object", "properties": {"k": {"type": "integer"}}}},\n'
        ' "tools": [{"name": "t", "description": "d", "parameters": {"type": "object", "properties": {\n'
        '   "x": {"$ref": "#/$defs/D", "default": null, "description": "x"},\n'
        '   "y": {"$ref": "#/$defs/D", "default": {"k": 1}, "description": "y"}}}}]}\n',
        "utf-8",
    )
    found = [(d.line, d.rule) for d in check_specs(specs)[0] if d.is_error]
    assert found == [(3, "default-invalid")]


# Patterns other engines read differently from ECMA-262 (unicode mode, JSON Schema's dialect):
# (pattern, where the refusal points, a word of the suggestion).
OTHER_ENGINES = [
    # POSIX class in Rust's regex (pydantic-core); ECMA-262: `[[:alph]` then a lone `]`.
    ("^[[:alpha:]]+$", "[A-Za-z]"),
    ("^a\\Z", "$"),  # Python's end of string; not an ECMA-262 escape
    ("(", "close"),  # compiles nowhere: was dropped from the class without a word
]


@pytest.mark.parametrize(("pattern", "suggested"), OTHER_ENGINES, ids=["posix", "Z", "open"])
def test_a_pattern_read_differently_by_another_engine_is_refused_located(
    tmp_path: Path, pattern: str, suggested: str
) -> None:
    from tests.support._generated import build_specs, spec

    tools = [
        spec("t", {"s": {"type": "string", "pattern": pattern, "description": "s"}}),
        spec("u", {"m": {"type": "object", "patternProperties": {pattern: {}}}}),
    ]
    built = build_specs(tmp_path, tools, "p")
    refused = [d for d in built.diagnostics if d.is_error]
    assert [(d.rule, d.file) for d in refused] == [("pattern-invalid", "tools.json")] * 2, [
        d.text() for d in built.diagnostics
    ]
    assert all(d.line >= 1 and d.col > 1 and suggested in d.hint for d in refused), refused
    assert not built.files


def test_a_pattern_rust_reads_with_set_operators_is_read_as_ecma(tmp_path: Path) -> None:
    """`[a&&b]` is the class of `a`, `&` and `b` in ECMA-262, their intersection in Rust."""
    from tests.support._generated import package, spec

    tool = spec("t", {"s": {"type": "string", "pattern": "^[a&&b]$", "description": "s"}})
    with package(tmp_path, tool) as module:
        assert module.validate_arguments("t", {"s": "&"}) is not None
        with pytest.raises(Exception, match="pattern"):
            module.validate_arguments("t", {"s": "ab"})
