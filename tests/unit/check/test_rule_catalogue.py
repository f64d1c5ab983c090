"""The rule catalogue: every rule ID toolgen reports is in it, the docs table is generated
from it, and `[tool.toolgen.lint] disable` drops the warnings (only) of the rules it names.

Rewrite the docs table with TOOLGEN_UPDATE_GOLDEN=1 (or `python -m toolgen.check.catalogue
--write docs/spec-format.md`), then read the diff.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.generation import REPO, UPDATE_GOLDEN
from toolgen.check.catalogue import (
    by_id,
    catalogue,
    validate_disabled,
    with_table,
    without_disabled,
)
from toolgen.cli import main
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.providers.base import RULES as NOTE_RULES
from toolgen.providers.diagnostics import HINTS

SOURCES = REPO / "generator" / "toolgen"
DOC = REPO / "docs" / "spec-format.md"
# Where each diagnostic constructor takes its rule ID (positional index).
RULE_ARGUMENT = {"diagnostic": 1, "warn": 2, "RefError": 2, "Diagnostic": 3}
# Rule IDs handed on, not chosen: a parameter (document.diagnostic, warn), a RefError's rule
# (raised with a literal, scanned there) and an exporter note's (test_provider_notes_... below).
PASSED_THROUGH = {"rule", "exc.rule", "note.rule"}


def test_rule_ids_are_unique() -> None:
    ids = [rule.id for rule in catalogue()]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[a-z]+(-[a-z]+)*", i) for i in ids)


def emitted_rule_ids() -> set[str]:
    """The rule IDs the sources pass to diagnostics: string literals, or module constants (ID, RULE, X.id)."""
    found: set[str] = set()
    for path in sorted(SOURCES.rglob("*.py")):
        if "runtime" in path.parts or "importers" in path.parts:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        constants = {
            t.id: n.value.value
            for n in tree.body
            if isinstance(n, ast.Assign)
            for t in n.targets
            if isinstance(t, ast.Name)
            and isinstance(n.value, ast.Constant)
            and isinstance(n.value.value, str)
        }
        rules = {
            t.id: n.value.args[0].value
            for n in tree.body
            if isinstance(n, ast.Assign)
            for t in n.targets
            if isinstance(t, ast.Name)
            and isinstance(n.value, ast.Call)
            and getattr(n.value.func, "id", "") == "Rule"
            and isinstance(n.value.args[0], ast.Constant)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = (
                node.func.attr
                if isinstance(node.func, ast.Attribute)
                else getattr(node.func, "id", "")
            )
            if name == "LoadError":  # the rule is a keyword, `syntax` when left out
                keyword = next((k.value for k in node.keywords if k.arg == "rule"), None)
                found.add(
                    keyword.value
                    if isinstance(keyword, ast.Constant)
                    else "syntax"
                    if keyword is None
                    else f"<unresolved {ast.unparse(keyword)} in {path.name}>"
                )
                continue
            index = RULE_ARGUMENT.get(name)
            if index is None or len(node.args) <= index:
                continue
            argument = node.args[index]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.add(argument.value)
            elif isinstance(argument, ast.Name) and argument.id in constants:
                found.add(constants[argument.id])
            elif (
                isinstance(argument, ast.Attribute)
                and isinstance(argument.value, ast.Name)
                and argument.value.id in rules
            ):
                found.add(rules[argument.value.id])
            elif ast.unparse(argument) in PASSED_THROUGH:
                continue
            else:
                found.add(f"<unresolved {ast.unparse(argument)} in {path.name}>")
    return found


def test_every_rule_the_sources_report_is_catalogued() -> None:
    emitted = emitted_rule_ids()
    assert {
        "syntax",
        "ref-remote",
        "unknown-type",
        "name-invalid",
        "binding",
    } <= emitted  # the scan sees them
    assert emitted - set(by_id()) == set()


def test_every_rule_in_the_goldens_is_catalogued() -> None:
    seen = set()
    for path in [
        *REPO.glob("tests/golden/invalid/*/expected.txt"),
        *REPO.glob("tests/golden/errors/expected/*"),
    ]:
        seen |= set(re.findall(r"^\S+:\d+:\d+: \w+\[([\w-]+)\]", path.read_text("utf-8"), re.M))
    assert len(seen) > 10 and seen - set(by_id()) == set()


def test_provider_notes_are_catalogued_with_a_hint() -> None:
    exported = {rule.id for rule in catalogue() if rule.id in set(NOTE_RULES.values())}
    assert exported == set(NOTE_RULES.values()) == set(HINTS)
    # A note where the runtime enforces everything and only a provider's model is told less.
    for rule in exported:
        notes = {"provider-fallback", "provider-lossy"}
        assert by_id()[rule].severity is (Severity.NOTE if rule in notes else Severity.WARNING)


def test_the_docs_table_is_generated_from_the_catalogue() -> None:
    text = DOC.read_text("utf-8")
    current = with_table(text)
    if UPDATE_GOLDEN and current != text:
        DOC.write_text(current, "utf-8")
        text = current
    assert text == current, (
        "docs/spec-format.md's rule table is out of date: run with TOOLGEN_UPDATE_GOLDEN=1"
    )
    for rule in catalogue():
        assert f"| `{rule.id}` | {rule.severity_text} |" in text


def test_disable_drops_warnings_and_keeps_errors() -> None:
    error = Diagnostic(
        "a.yaml", 1, 1, "description-missing", Severity.ERROR, "tool 't' has no description"
    )
    warning = Diagnostic(
        "a.yaml", 2, 1, "description-missing", Severity.WARNING, "parameter 'x' has no description"
    )
    other = Diagnostic("a.yaml", 3, 1, "description-purpose", Severity.WARNING, "no verb")
    assert without_disabled([error, warning, other], ["description-missing"]) == [error, other]
    assert without_disabled([error, warning, other], []) == [error, warning, other]


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (
            ["unknown-keywrd"],
            "unknown rule 'unknown-keywrd' in [tool.toolgen.lint] disable; did you mean 'unknown-keyword'?",
        ),
        (["json-schema"], "rule 'json-schema' in [tool.toolgen.lint] disable reports only errors"),
        (["syntax"], "rule 'syntax' in [tool.toolgen.lint] disable reports only errors"),
        (
            ["unknown-keyword"],
            "rule 'unknown-keyword' in [tool.toolgen.lint] disable reports only errors",
        ),
    ],
)
def test_disable_refuses_unknown_and_error_only_rules(ids: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        validate_disabled(ids)


def test_disable_accepts_warning_rules() -> None:
    ids = ("description-purpose", "description-missing", "provider-lossy", "description-too-long")
    assert validate_disabled(ids) == ids


SPEC = """\
name: t
description: Weather for a city.
parameters:
  type: object
  properties:
    x: {type: string}
"""


def project(tmp_path: Path, disable: str | None) -> Path:
    (tmp_path / "schemas").mkdir(parents=True)
    (tmp_path / "schemas" / "t.yaml").write_text(SPEC, "utf-8")
    table = f"\n[tool.toolgen.lint]\ndisable = {disable}\n" if disable is not None else ""
    (tmp_path / "pyproject.toml").write_text(f'[tool.toolgen]\npackage = "p"\n{table}', "utf-8")
    return tmp_path


@pytest.mark.parametrize("command", [["lint"], ["generate"]])
def test_lint_and_generate_honour_the_configuration(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(project(tmp_path / "loud", None))
    loud = CliRunner().invoke(main, command, catch_exceptions=False)
    report = loud.stdout if command == ["lint"] else loud.stderr
    assert (
        loud.exit_code == 0
        and "warning[description-purpose]" in report
        and "warning[description-missing]" in report
    )

    monkeypatch.chdir(project(tmp_path / "quiet", '["description-purpose"]'))
    quiet = CliRunner().invoke(main, command, catch_exceptions=False)
    report = quiet.stdout if command == ["lint"] else quiet.stderr
    assert (
        quiet.exit_code == 0
        and "description-purpose" not in report
        and "warning[description-missing]" in report
    )


@pytest.mark.parametrize(
    ("disable", "message"),
    [
        ('["unknown-keywrd"]', "did you mean 'unknown-keyword'?"),
        ('["json-schema"]', "reports only errors"),
        ('"description-purpose"', "must be a list of rule IDs"),
    ],
)
def test_a_bad_configuration_is_a_usage_error(
    disable: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project(tmp_path, disable))
    result = CliRunner().invoke(main, ["lint"], catch_exceptions=False)
    assert result.exit_code == 2 and message in result.stderr
