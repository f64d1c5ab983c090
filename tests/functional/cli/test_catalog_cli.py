"""`toolgen catalog` as a user runs it: the files it writes, the same bytes twice, pages of
removed tools removed, `--against`, and its exit codes."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tests.support.catalog_support import SPECS, Elements
from tests.support.generation import tree
from toolgen.cli import main


def _specs(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).write_text(text, "utf-8")
    return root


def _catalog(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["catalog", *args])
    return result.exit_code, result.output


def test_writes_the_site_the_same_bytes_every_time(tmp_path: Path) -> None:
    specs = _specs(tmp_path / "specs", SPECS)
    one, two = tmp_path / "one", tmp_path / "two"
    assert _catalog("--specs", str(specs), "--out", str(one))[0] == 0
    code, output = _catalog("--specs", str(specs), "--out", str(two))
    assert code == 0 and "catalog of 3 tools" in output and "(6 files written)" in output
    assert tree(one) == tree(two) and len(tree(one)) == 6
    code, output = _catalog("--specs", str(specs), "--out", str(two))
    assert code == 0 and "(0 files written)" in output


def test_a_removed_tools_page_goes(tmp_path: Path) -> None:
    specs = _specs(tmp_path / "specs", SPECS)
    out = tmp_path / "site"
    assert _catalog("--specs", str(specs), "--out", str(out))[0] == 0
    (specs / "weather.yaml").unlink()
    assert _catalog("--specs", str(specs), "--out", str(out))[0] == 0
    assert sorted(p.name for p in (out / "tools").iterdir()) == [
        "find_customer.html",
        "merge_customers.html",
    ]


def test_against_a_previous_spec_set(tmp_path: Path) -> None:
    before = _specs(tmp_path / "before", SPECS)
    loosened = SPECS["people.yaml"].replace("required: [keep, remove]", "required: [keep]")
    specs = _specs(tmp_path / "specs", {"people.yaml": loosened})
    out = tmp_path / "site"
    code, output = _catalog("--specs", str(specs), "--out", str(out), "--against", str(before))
    assert code == 0, output
    index = " ".join(Elements((out / "index.html").read_text("utf-8")).text)
    assert "Needed version bump:" in index and "major" in index
    assert "Tools no longer here" in index and "get_weather" in index
    merge = " ".join(Elements((out / "tools/merge_customers.html").read_text("utf-8")).text)
    assert "Changes since" in merge and "remove" in merge and "needs a" in merge
    assert "changed (error)" not in index and "changed (" in index  # the one change is no error
    find = " ".join(Elements((out / "tools/find_customer.html").read_text("utf-8")).text)
    assert "Changes since" in find and "None." in find


def test_exit_codes(tmp_path: Path) -> None:
    specs = _specs(tmp_path / "specs", SPECS)
    out = tmp_path / "site"
    code, output = _catalog(
        "--specs", str(specs), "--out", str(out), "--against", str(tmp_path / "no")
    )
    assert code == 2 and "cannot read --against" in output and not out.exists()
    broken = _specs(tmp_path / "broken", {"bad.yaml": "name: bad\nparameters: {type: nope}\n"})
    code, output = _catalog("--specs", str(broken), "--out", str(out))
    assert code == 1 and "error[" in output and not out.exists()
    code, output = _catalog("--specs", str(tmp_path / "missing"), "--out", str(out))
    assert code == 2 and not out.exists()
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", "utf-8")
    code, output = _catalog("--specs", str(specs), "--out", str(blocked / "site"))
    assert code == 2 and "cannot write the catalog" in output
