"""`toolgen breaking`: the contract diff between two spec sets.

tests/golden/breaking/<case>/{previous,current}/ hold the two sides of one change; expected.txt is
the exact text report (`file:line:col: severity[RULE_ID]: message`, hint lines, the summary
with the version bump), compared with every category on and sunsets seen from TODAY. A case
named after a rule (lower case) must report that rule; every rule has one. Regenerate the
expected files with TOOLGEN_UPDATE_GOLDEN=1 and read the diff.

Then: the properties (a spec set compared with itself reports nothing; an optional
parameter with a default is never an error; a narrowing breaks callers and widening it
back does not), the settings, the versions, a generated package as the previous side,
and the command in a real git repository with two commits.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.support.generation import REPO, UPDATE_GOLDEN, generate
from toolgen.breaking import sources, typed
from toolgen.breaking.engine import compare
from toolgen.breaking.report import Report, render
from toolgen.breaking.rules import BY_ID, CATEGORIES, RULES, SOURCE, WIRE, with_table
from toolgen.breaking.settings import Settings, everything, parse
from toolgen.breaking.versions import declared_bump, enough, least, numbers
from toolgen.cli import main
from toolgen.spec.model import Deprecation, SpecModelError, ToolSpec

CASES_ROOT = REPO / "tests" / "golden" / "breaking"
CASES = sorted(p for p in CASES_ROOT.iterdir() if (p / "previous").is_dir())
TODAY = date(2026, 6, 15)


def run_case(case: Path, chosen: Settings | None = None) -> Report:
    current = sources.current(case / "current")
    previous = sources.directory(case / "previous", "previous", None, current)
    return compare(previous, current, chosen or everything(), TODAY)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_reports_exactly_what_expected_txt_says(case: Path) -> None:
    actual = render(run_case(case)) + "\n"
    path = case / "expected.txt"
    if UPDATE_GOLDEN:
        path.write_text(actual, "utf-8")
    assert path.is_file(), f"{path} is missing; run with TOOLGEN_UPDATE_GOLDEN=1 and review it"
    assert actual == path.read_text("utf-8")
    rule = case.name.upper()
    if rule in BY_ID:
        assert f"[{rule}]" in actual, f"the case {case.name} does not report its rule"


def test_every_rule_has_a_case() -> None:
    missing = [rule.slug for rule in RULES if not (CASES_ROOT / rule.slug / "previous").is_dir()]
    assert not missing, f"add tests/golden/breaking/<rule>/ for: {missing}"
    assert {rule.category for rule in RULES} == set(CATEGORIES)


def test_the_rule_table_in_the_docs_is_current() -> None:
    doc = (REPO / "docs" / "breaking.md").read_text("utf-8")
    assert with_table(doc) == doc, "run `python -m toolgen.breaking.rules --write docs/breaking.md`"


def test_a_case_without_changes_reports_nothing_and_needs_no_bump() -> None:
    report = run_case(CASES_ROOT / "unchanged")
    assert report.findings == () and report.needed == "none"


def test_the_previous_side_is_located_in_the_message() -> None:
    text = render(run_case(CASES_ROOT / "param_no_delete"))
    assert re.search(
        r"^weather\.yaml:\d+:\d+: error\[PARAM_NO_DELETE\]: .*\(was at previous/weather\.yaml:7:5\)$",
        text,
        re.M,
    ), text


def test_changes_inside_a_referenced_file_are_located_there() -> None:
    text = render(run_case(CASES_ROOT / "refs_across_files"))
    assert "parameter 'place.lat' was removed" in text
    assert "(was at previous/shared.yaml:6:7)" in text, text


# -- properties --------------------------------------------------------------------------------

NAMES = st.sampled_from(
    ["location", "unit", "days", "query", "limit", "tags", "filters", "mode", "page"]
)


def leaf() -> st.SearchStrategy[dict[str, Any]]:
    strings = st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={
            "maxLength": st.integers(1, 200),
            "minLength": st.integers(0, 3),
            "pattern": st.just("^[a-z]+$"),
            "enum": st.lists(
                st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=4, unique=True
            ),
            "default": st.just("a"),
        },
    )
    numbers_ = st.fixed_dictionaries(
        {"type": st.sampled_from(["integer", "number"])},
        optional={
            "minimum": st.integers(-5, 5),
            "maximum": st.integers(6, 100),
            "multipleOf": st.sampled_from([1, 2, 5]),
        },
    )
    nullable = st.fixed_dictionaries(
        {"type": st.sampled_from([["string", "null"], ["integer", "null"]])}
    )
    return st.one_of(strings, numbers_, nullable, st.just({"type": "boolean"}))


def schemas() -> st.SearchStrategy[dict[str, Any]]:
    return st.recursive(
        leaf(),
        lambda inner: st.one_of(
            st.fixed_dictionaries(
                {"type": st.just("array"), "items": inner}, optional={"maxItems": st.integers(1, 9)}
            ),
            st.builds(
                lambda props, n: {
                    "type": "object",
                    "properties": props,
                    "required": sorted(props)[:n],
                },
                st.dictionaries(NAMES, inner, min_size=1, max_size=3),
                st.integers(0, 2),
            ),
        ),
        max_leaves=6,
    )


# Made once: a recursive strategy made anew for each draw is set up again each time, which
# cost most of the property tests' time (the values drawn are the same).
SCHEMAS = schemas()
PROPERTIES = st.dictionaries(NAMES, SCHEMAS, max_size=4)


@st.composite
def tools(draw: st.DrawFn) -> dict[str, Any]:
    properties = draw(PROPERTIES)
    required = (
        draw(st.lists(st.sampled_from(sorted(properties)), unique=True)) if properties else []
    )
    tool: dict[str, Any] = {
        "name": "probe",
        "description": "A probe.",
        "parameters": {"type": "object", "properties": properties, "required": required},
    }
    if draw(st.booleans()):
        tool["returns"] = draw(SCHEMAS)
    return tool


def side(tool: dict[str, Any], label: str = "") -> sources.Side:
    return sources.from_texts({"probe.json": json.dumps(tool)}, label)


def diff(before: dict[str, Any], after: dict[str, Any]) -> Report:
    return compare(side(before, "previous/"), side(after), everything(), TODAY)


@settings(max_examples=60, deadline=None)
@given(tools())
def test_a_spec_set_compared_with_itself_reports_nothing(tool: dict[str, Any]) -> None:
    assert diff(tool, json.loads(json.dumps(tool))).findings == ()


@settings(max_examples=60, deadline=None)
@given(tools(), leaf())
def test_an_optional_parameter_with_a_default_is_never_an_error(
    tool: dict[str, Any], schema: dict[str, Any]
) -> None:
    after = json.loads(json.dumps(tool))
    after["parameters"]["properties"]["added_one"] = {
        **schema,
        "default": None
        if "null" in schema["type"]
        else {"string": "a", "boolean": True}.get(schema["type"], 6),
    }
    report = diff(tool, after)
    assert not [f for f in report.findings if f.severity == "error"], render(report)
    assert "PARAM_ADDED" in {f.rule for f in report.findings}
    assert report.needed == "minor"


def narrowed(tool: dict[str, Any], how: int) -> dict[str, Any] | None:
    """The tool with one parameter narrowed (None when it has nothing to narrow that way)."""
    out = json.loads(json.dumps(tool))
    properties = out["parameters"]["properties"]
    for name, schema in properties.items():
        if how == 0 and schema.get("type") == "string":
            schema["maxLength"] = min(schema.get("maxLength", 201), 201) - 1
            return out
        if how == 1 and isinstance(schema.get("enum"), list) and len(schema["enum"]) > 1:
            schema["enum"] = schema["enum"][:-1]
            if schema.get("default") not in schema["enum"]:
                schema.pop("default", None)
            return out
        if how == 2 and name not in out["parameters"]["required"]:
            out["parameters"]["required"].append(name)
            return out
        if how == 3 and isinstance(schema.get("type"), list):
            schema["type"] = schema["type"][0]
            return out
    return None


@settings(max_examples=80, deadline=None)
@given(tools(), st.integers(0, 3))
def test_a_narrowing_breaks_callers_and_widening_it_back_does_not(
    tool: dict[str, Any], how: int
) -> None:
    narrow = narrowed(tool, how)
    assume(narrow is not None)
    assert narrow is not None
    forward, back, round_trip = (
        diff(tool, narrow),
        diff(narrow, tool),
        diff(tool, json.loads(json.dumps(tool))),
    )
    assert any(f.severity == "error" and f.category == WIRE for f in forward.findings), render(
        forward
    )
    assert not [f for f in back.findings if f.severity == "error"], render(back)
    assert {f.category for f in back.findings} <= {SOURCE, "BEHAVIOR"}
    assert round_trip.findings == ()


# -- settings ------------------------------------------------------------------------------------


def test_settings_name_their_mistakes() -> None:
    with pytest.raises(ValueError, match="did you mean 'PARAM_NO_DELETE'"):
        parse({"except": ["PARAM_NO_DELET"]})
    with pytest.raises(ValueError, match="unknown category 'WIRES'.*'WIRE'"):
        parse({"use": ["WIRES"]})
    with pytest.raises(ValueError, match="unknown setting 'ignore'"):
        parse({"ignore": []})
    with pytest.raises(ValueError, match="severity.TOOL_ADDED is one of"):
        parse({"severity": {"TOOL_ADDED": "fatal"}})
    with pytest.raises(ValueError, match="fail_on"):
        parse({"fail_on": "info"})
    assert parse({}).use == ("SOURCE", "PROVIDER", "BEHAVIOR")


def test_use_except_ignore_only_and_severity() -> None:
    case = CASES_ROOT / "param_no_delete_open"
    assert {f.rule for f in run_case(case, parse({"use": ["WIRE"]})).findings} == set()
    assert {f.rule for f in run_case(case, parse({"use": ["SOURCE"]})).findings} == {
        "PARAM_NO_DELETE_OPEN"
    }
    assert run_case(case, parse({"except": ["PARAM_NO_DELETE_OPEN"]})).findings == ()
    assert (
        run_case(case, parse({"ignore_only": {"PARAM_NO_DELETE_OPEN": ["weather.yaml"]}})).findings
        == ()
    )
    assert (
        run_case(case, parse({"ignore_only": {"PARAM_NO_DELETE_OPEN": ["other/"]}})).findings != ()
    )
    softened = run_case(case, parse({"severity": {"PARAM_NO_DELETE_OPEN": "warning"}}))
    assert [f.severity for f in softened.findings] == ["warning"] and softened.needed == "minor"
    assert "TOOL_SAME_FILE" not in {
        f.rule for f in run_case(CASES_ROOT / "tool_same_file", parse({})).findings
    }
    moved = run_case(CASES_ROOT / "tool_same_file", parse({"use": ["FILE"]}))
    assert "TOOL_SAME_FILE" in {f.rule for f in moved.findings}


def test_experimental_tools_are_exempt_and_stability_only_rises() -> None:
    assert run_case(CASES_ROOT / "experimental_exempt").findings == ()
    assert [f.rule for f in run_case(CASES_ROOT / "stability_no_decrease").findings] == [
        "STABILITY_NO_DECREASE"
    ]


def test_a_sunset_is_the_last_day_the_thing_is_taken() -> None:
    case = CASES_ROOT / "param_deleted_after_sunset"  # x-sunset 2020-01-31
    current = sources.current(case / "current")
    previous = sources.directory(case / "previous", "previous", None, current)
    on_the_day = compare(previous, current, everything(), date(2020, 1, 31))
    after = compare(previous, current, everything(), date(2020, 2, 1))
    assert [f.rule for f in on_the_day.findings] == ["PARAM_NO_DELETE_BEFORE_SUNSET"]
    assert [f.rule for f in after.findings] == ["PARAM_DELETED_AFTER_SUNSET"]


# -- versions ------------------------------------------------------------------------------------


def test_versions_and_bumps() -> None:
    assert numbers("1.2") == (1, 2, 0) and numbers("2.0.0rc1") == (2, 0, 0) and numbers("x") is None
    assert declared_bump("1.2.3", "2.0.0") == "major" and declared_bump("1.2.3", "1.2.3") == "none"
    assert declared_bump("1.2.3", "1.2.2") == "down" and declared_bump("1.2", "1.2.1") == "patch"
    assert enough("1.2.0", "major", "major") and not enough("1.2.0", "minor", "major")
    assert enough("0.3.0", "minor", "major") and enough(
        "0.3.0", "patch", "minor"
    )  # below 1.0.0: one step more
    assert not enough("0.3.0", "none", "patch") and enough("1.0.0", "none", "none")
    assert least("1.4.2", "major") == "2.0.0" and least("0.4.2", "major") == "0.5.0"
    assert least("1.4.2", "patch") == "1.4.3" and least("1.4.2", "none") == ""


def test_a_tool_version_that_rises_too_little_is_reported_at_its_version() -> None:
    text = render(run_case(CASES_ROOT / "version_bump_too_small"))
    assert re.search(
        r"^weather\.yaml:3:1: error\[VERSION_BUMP_TOO_SMALL\]: tool 'get_weather': version 1\.2\.0 -> "
        r"1\.2\.1 is a patch bump; the changes need a major bump \(at least 2\.0\.0\)",
        text,
        re.M,
    ), text


# -- a generated package as the previous side --------------------------------------------------


def test_a_generated_package_is_read_through_its_mcp_definitions(tmp_path: Path) -> None:
    previous = tmp_path / "previous"
    shutil.copytree(CASES_ROOT / "param_no_delete" / "previous", previous)
    generate(previous, tmp_path / "out", "weather_pkg")
    current = sources.current(CASES_ROOT / "param_no_delete" / "current")
    for ref in (tmp_path / "out", tmp_path / "out" / "weather_pkg"):
        before = sources.previous(
            str(ref), CASES_ROOT / "param_no_delete" / "current", None, current
        )
        assert before.kind == sources.PACKAGE
        report = compare(before, current, everything(), TODAY)
        assert [f.rule for f in report.findings] == ["PARAM_NO_DELETE"], render(report)
        assert re.search(r"was at .*definitions/mcp\.json:\d+:\d+\)$", report.findings[0].message)
    unchanged = sources.previous(str(tmp_path / "out"), previous, None, None)
    assert compare(unchanged, sources.current(previous), everything(), TODAY).findings == ()


# -- the command ---------------------------------------------------------------------------------


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def toolgen(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO / "generator"), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-m", "toolgen", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A git repository whose second commit removes a parameter and raises the version too little."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    (repo / "specs").mkdir(parents=True)
    case = CASES_ROOT / "param_no_delete"
    (repo / "pyproject.toml").write_text(
        '[tool.toolgen]\nspecs = "specs"\nversion = "1.4.0"\n', "utf-8"
    )
    shutil.copy(case / "previous" / "weather.yaml", repo / "specs" / "weather.yaml")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "first")
    shutil.copy(case / "current" / "weather.yaml", repo / "specs" / "weather.yaml")
    (repo / "pyproject.toml").write_text(
        '[tool.toolgen]\nspecs = "specs"\nversion = "1.5.0"\n', "utf-8"
    )
    git(repo, "commit", "-qam", "second")
    return repo


def test_breaking_against_the_commit_before(repository: Path) -> None:
    done = toolgen(repository, "breaking", "--against", "HEAD~1")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == (
        "2 error(s), 0 warning(s), 0 info; needed version bump: major "
        "(declared: minor, 1.4.0 -> 1.5.0)"
    )
    removed = (
        r"weather\.yaml:\d+:\d+: error\[PARAM_NO_DELETE\]: tool 'get_weather': parameter 'unit' was removed: "
        r"calls that send it are now refused \(was at HEAD~1:specs/weather\.yaml:7:5\)"
    )
    assert any(re.fullmatch(removed, line) for line in lines), done.stdout
    assert (
        "../pyproject.toml:3:1: error[VERSION_BUMP_TOO_SMALL]: the spec set: version 1.4.0 -> 1.5.0"
        in done.stdout
    )
    assert toolgen(repository, "breaking", "--against", "HEAD").returncode == 0


@pytest.mark.parametrize(
    ("version", "code"), [("2.0.0", 0), ("1.5.0", 1), ("1.4.0", 1), ("3.0.0rc1", 0)]
)
def test_a_break_released_as_a_major_version_goes_through(
    repository: Path, version: str, code: int
) -> None:
    """The CI recipe's promise: raising the version as the summary asks lets a deliberate break
    through; a smaller bump does not."""
    (repository / "pyproject.toml").write_text(
        f'[tool.toolgen]\nspecs = "specs"\nversion = "{version}"\n', "utf-8"
    )
    git(repository, "commit", "-q", "--allow-empty", "-am", "release")
    done = toolgen(repository, "breaking", "--against", "HEAD~2")
    assert done.returncode == code, done.stdout + done.stderr
    assert "error[PARAM_NO_DELETE]" in done.stdout  # reported either way
    last = done.stdout.splitlines()[-1]
    assert last.endswith("; 1 let through by the declared version bump") == (code == 0), last
    as_json = json.loads(
        toolgen(repository, "breaking", "--against", "HEAD~2", "--format", "json").stdout
    )
    assert [f["rule"] for f in as_json["released"]] == (["PARAM_NO_DELETE"] if code == 0 else [])


def test_a_tools_own_major_version_lets_its_break_through(tmp_path: Path) -> None:
    case = CASES_ROOT / "param_no_delete"
    sides = {}
    for side, version in (("previous", "1.2.0"), ("current", "2.0.0")):
        folder = tmp_path / side
        folder.mkdir()
        text = (case / side / "weather.yaml").read_text("utf-8")
        (folder / "weather.yaml").write_text(f"version: '{version}'\n{text}", "utf-8")
        sides[side] = folder
    done = toolgen(
        tmp_path, "breaking", "--against", str(sides["previous"]), "--specs", str(sides["current"])
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "error[PARAM_NO_DELETE]" in done.stdout and "let through" in done.stdout


def test_breaking_output_formats_and_exit_codes(repository: Path) -> None:
    github = toolgen(repository, "breaking", "--against", "HEAD~1", "--format", "github")
    assert re.search(
        r"^::error file=specs/weather\.yaml,line=\d+,col=\d+,title=PARAM_NO_DELETE::\[PARAM_NO_DELETE\] ",
        github.stdout,
        re.M,
    ), github.stdout
    as_json = json.loads(
        toolgen(repository, "breaking", "--against", "HEAD~1", "--format", "json").stdout
    )
    assert as_json["needed_bump"] == "major" and as_json["errors"] == 2
    assert {f["rule"] for f in as_json["findings"]} == {"PARAM_NO_DELETE", "VERSION_BUMP_TOO_SMALL"}
    missing = toolgen(repository, "breaking", "--against", "no-such-revision")
    assert missing.returncode == 2 and "cannot read --against no-such-revision" in missing.stderr
    # A REF the OS cannot use as a path (a name too long), or that would break the line: one line.
    for unusable in ("a" * 5000, "x/" + "b" * 300 + "/y", "line\r\nbreak\x1b[31m"):
        refused = toolgen(repository, "breaking", "--against", unusable)
        assert refused.returncode == 2 and refused.stdout == "", refused.stderr[-300:]
        assert refused.stderr.startswith("toolgen: cannot read --against "), refused.stderr[-300:]
        assert len(refused.stderr.splitlines()) == 1 and "\x1b" not in refused.stderr
    (repository / "pyproject.toml").write_text(
        '[tool.toolgen]\nspecs = "specs"\n[tool.toolgen.breaking]\nexcept = ["PARAM_NO_DELETE"]\n',
        "utf-8",
    )
    assert toolgen(repository, "breaking", "--against", "HEAD~1").returncode == 0
    (repository / "pyproject.toml").write_text(
        '[tool.toolgen]\nspecs = "specs"\n[tool.toolgen.breaking]\n'
        'severity = {PARAM_NO_DELETE = "warning"}\n',
        "utf-8",
    )
    assert toolgen(repository, "breaking", "--against", "HEAD~1").returncode == 0
    assert (
        toolgen(repository, "breaking", "--against", "HEAD~1", "--fail-on", "warning").returncode
        == 1
    )
    (repository / "pyproject.toml").write_text(
        '[tool.toolgen]\nspecs = "specs"\n[tool.toolgen.breaking]\nuse = ["WIRES"]\n', "utf-8"
    )
    wrong = toolgen(repository, "breaking", "--against", "HEAD~1")
    assert wrong.returncode == 2 and "did you mean 'WIRE'" in wrong.stderr


def test_breaking_against_a_directory_through_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    case = CASES_ROOT / "param_enum_value_no_delete"
    result = CliRunner().invoke(
        main,
        [
            "breaking",
            "--specs",
            str(case / "current"),
            "--against",
            str(case / "previous"),
            "--today",
            "2026-06-15",
        ],
    )
    assert result.exit_code == 1, result.output
    assert (
        "error[PARAM_ENUM_VALUE_NO_DELETE]: tool 'get_weather': parameter 'unit' no longer accepts \"kelvin\""
        in result.output
    )


# -- CI integration ------------------------------------------------------------------------------


def test_the_pre_commit_hooks_run_the_commands() -> None:
    hooks = {
        hook["id"]: hook
        for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
    }
    assert set(hooks) == {"toolgen-lint", "toolgen-check", "toolgen-breaking"}
    for name, hook in hooks.items():
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        assert hook["entry"].split()[:2] == ["toolgen", name.removeprefix("toolgen-")]


def test_the_documented_workflow_runs_lint_check_and_breaking_against_the_base_branch() -> None:
    doc = (REPO / "docs" / "breaking.md").read_text("utf-8")
    (block,) = [b for b in re.findall(r"^```yaml\n(.*?)^```$", doc, re.M | re.S) if "jobs:" in b]
    workflow = yaml.safe_load(block)
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    checkout = next(
        step for step in steps if str(step.get("uses", "")).startswith("actions/checkout")
    )
    assert checkout["with"]["fetch-depth"] == 0
    commands = " ".join(str(step.get("run", "")) for step in steps)
    for command in (
        "toolgen lint",
        "toolgen check",
        "toolgen breaking --against origin/${{ github.base_ref }}",
    ):
        assert command in commands, command


# -- both sides read with the spec model -------------------------------------------------------


def test_an_entry_the_format_accepts_is_parsed_strictly() -> None:
    entry = {"name": "probe", "flags": ["idempotent"], "timeout_s": 5, "sunset": "2999-01-01"}
    entry["deprecated"] = {"reason": "old"}
    assert typed.parse(entry) == ToolSpec.parse(entry)
    assert typed.parse(entry).deprecation == Deprecation("old", None, "2999-01-01")


def test_an_entry_the_format_refuses_keeps_every_key_that_parses() -> None:
    """An old revision may not pass today's rules: what it wrongly wrote reads as absent."""
    entry = {"name": "probe", "timeout_s": "soon", "deprecated": True, "flags": ["idempotent"]}
    with pytest.raises(SpecModelError):
        ToolSpec.parse(entry)
    spec = typed.parse(entry)
    assert spec.flags == ("idempotent",) and spec.timeout_s is None
    assert spec.stability == "stable" and spec.deprecation is None


def test_a_previous_side_that_fails_the_strict_parse_is_still_compared() -> None:
    before = {
        "name": "probe",
        "description": "A probe.",
        "timeout_s": "thirty",
        "flags": ["idempotent", "retryable"],
        "errors": {"busy": {"description": "Try later."}},
    }
    after = {"name": "probe", "description": "A probe.", "timeout_s": 10, "flags": ["idempotent"]}
    found = {f.rule: f.message for f in diff(before, after).findings}
    assert "removed retryable" in found["TOOL_SAME_FLAGS"]
    assert "busy" in found["TOOL_ERROR_NO_DELETE"]
    assert "none -> 10 s" in found["TOOL_TIMEOUT_NO_DECREASE"]  # the unreadable one: absent


def _raw_reads(source: str) -> list[int]:
    """Lines that read a key of an entry's raw `data` (`x.data.get(...)`, `x.data[...]`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        target = (
            node.value
            if isinstance(node, ast.Subscript)
            else node.func.value
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            else None
        )
        if isinstance(target, ast.Attribute) and target.attr == "data":
            found.append(node.lineno)
    return found


def test_the_rules_read_typed_specs_not_raw_entries() -> None:
    """Only the sides (side.py: loading, from_package.py: MCP read back) and typed.py (the
    parse) read an entry's raw keys; a rule reading `data` would interpret the spec format a
    second time."""
    package = REPO / "generator" / "toolgen" / "breaking"
    readers = {"side.py", "from_package.py", "typed.py"}
    found = [
        f"{path.name}:{line}"
        for path in sorted(package.glob("*.py"))
        if path.name not in readers
        for line in _raw_reads(path.read_text("utf-8"))
    ]
    assert found == [], "read `entry.spec` (a ToolSpec) instead"
    assert _raw_reads('x = entry.data.get("timeout_s")\ny = b.data["flags"]\n') == [1, 2]
