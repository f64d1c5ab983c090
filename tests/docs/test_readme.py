"""The README's quickstart, run as written: its spec, its commands, its Python and its output.

The quickstart's shell block runs in an empty folder under bash, with `toolgen` on PATH
running this checkout (`python -m toolgen`). Its first Python block then runs in the folder
the shell block ended in; every run of `# ` lines in that block is the output the code
above it must print, exactly. The contract-test block runs under pytest against the class
the first block defines. The example message quoted in the README's introduction must be
what the package prints, and every CLI command must have a row in the command table.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.generation import REPO
from toolgen.cli import main

README = (REPO / "README.md").read_text("utf-8")
MARK = "-----8<----- readme output boundary -----8<-----"


def section(title: str) -> str:
    """The text of the README section whose heading starts with `title`, up to the next `## `."""
    match = re.search(rf"^## {re.escape(title)}.*?$(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match, f"README has no section '## {title}'"
    return match.group(1)


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.M | re.S)


QUICKSTART = section("Quickstart")


def chunks(code: str) -> tuple[list[str], list[str]]:
    """Split a Python block at its output comments: (code before each, the output shown)."""
    pieces: list[str] = []
    outputs: list[str] = []
    current: list[str] = []
    shown: list[str] | None = None
    for line in code.splitlines():
        if line.startswith("# ") and current:
            shown = [] if shown is None else shown
            shown.append(line[2:])
            continue
        if shown is not None:
            pieces.append("\n".join(current))
            outputs.append("\n".join(shown) + "\n")
            current, shown = [], None
        current.append(line)
    if shown is not None:
        pieces.append("\n".join(current))
        outputs.append("\n".join(shown) + "\n")
        current = []
    pieces.append("\n".join(current))  # the rest, whose output the README does not show
    return pieces, outputs


def environment(bin_dir: Path) -> dict[str, str]:
    """This checkout first on the import path; `toolgen` on PATH runs it."""
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "toolgen"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m toolgen "$@"\n', "utf-8")
    shim.chmod(0o755)
    path = [str(REPO / "generator"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(path),
    }


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The folder the quickstart's shell block leaves behind (specs/ and the generated out/)."""
    if shutil.which("bash") is None:
        pytest.skip("the quickstart is a bash script; bash is not installed")
    root = tmp_path_factory.mktemp("readme")
    env = environment(root / "bin")
    (script,) = blocks(QUICKSTART, "sh")
    assert "toolgen generate" in script, "the quickstart no longer generates a package"
    done = subprocess.run(
        ["bash", "-euc", script + "\npwd\n"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    folder = Path(done.stdout.splitlines()[-1])
    assert (folder / "out" / "pyproject.toml").is_file(), (
        "the README says out/pyproject.toml is written"
    )
    return folder, env


def run_python(folder: Path, env: dict[str, str], code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_quickstart_prints_what_the_readme_shows(demo: tuple[Path, dict[str, str]]) -> None:
    folder, env = demo
    code = blocks(QUICKSTART, "python")[0]
    pieces, outputs = chunks(code)
    assert len(outputs) >= 2, "the quickstart's Python block shows no output to check"
    script = f"\nprint({MARK!r})\n".join(pieces)
    printed = run_python(folder, env, script).split(MARK + "\n")
    assert len(printed) == len(pieces)
    for i, (shown, actual) in enumerate(zip(outputs, printed, strict=False)):
        assert actual == shown, (
            f"output {i + 1} of the quickstart differs from the README:\n{actual}"
        )
    assert "get_weather" in printed[-1], (
        "tool_definitions('openai') printed no definition of get_weather"
    )


def test_the_introduction_quotes_a_real_message(demo: tuple[Path, dict[str, str]]) -> None:
    quoted = re.search(r"say how\s+to fix the call \(`([^`]+)`\)", README)
    assert quoted, "the introduction no longer quotes an example message"
    code = blocks(QUICKSTART, "python")[0]
    message = code[code.index("# Invalid arguments") :]
    assert quoted.group(1) in message, f"{quoted.group(1)!r} is not what the quickstart shows"


def test_contract_tests_block_runs_against_the_quickstart_class(
    demo: tuple[Path, dict[str, str]],
) -> None:
    folder, env = demo
    first, contracts = blocks(QUICKSTART, "python")[0], block_with("ContractTests")
    module = re.search(r"^from (\w+) import GetWeather", contracts, re.M)
    assert module, "the contract-test example no longer imports the quickstart's class"
    class_code = first[: first.index("\nregistry = ")]  # the imports and the class, not the calls
    (folder / f"{module.group(1)}.py").write_text(class_code + "\n", "utf-8")
    (folder / "test_contracts.py").write_text(contracts, "utf-8")
    assert "pip install './out[testing]'" in QUICKSTART
    installed = {
        **env,
        "PYTHONPATH": os.pathsep.join([str(folder / "out"), env["PYTHONPATH"]]),
    }  # as if pip-installed
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(folder),
            "test_contracts.py",
        ],
        cwd=folder,
        env=installed,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\b[1-9]\d* passed", done.stdout), done.stdout


def block_with(text: str) -> str:
    """The quickstart's Python block that holds `text`."""
    found = [b for b in blocks(QUICKSTART, "python") if text in b]
    assert len(found) == 1, f"the quickstart has {len(found)} Python blocks with {text!r}"
    return found[0]


def test_the_host_loop_prints_what_the_readme_shows(demo: tuple[Path, dict[str, str]]) -> None:
    folder, env = demo
    first = blocks(QUICKSTART, "python")[0]
    setup = first[: first.index("\nregistry = ")]  # the imports and the classes
    pieces, outputs = chunks(block_with("arespond"))
    assert "approve=approve" in pieces[0] and "timeout_s=" in pieces[0], (
        "the host loop shows no approval or timeout"
    )
    printed = run_python(folder, env, setup + "\n" + f"\nprint({MARK!r})\n".join(pieces)).split(
        MARK + "\n"
    )
    assert printed[: len(outputs)] == outputs


def test_every_command_has_a_row_in_the_command_table() -> None:
    table = section("Commands")
    missing = [name for name in sorted(main.commands) if f"| `toolgen {name}" not in table]
    assert not missing, f"commands without a row in the README's command table: {missing}"


def test_the_served_quickstart_answers_the_client_block(demo: tuple[Path, dict[str, str]]) -> None:
    """The serve command as the README writes it (on a free port), over the quickstart's
    registry in `my_tools.py`; then the client block, whose output must be what it shows."""
    from tests.support.mcp_support import serving

    folder, env = demo
    served = section("Quickstart")[section("Quickstart").index("### Serve the tools") :]
    (command,) = re.findall(r"^\$ (python -m .*?)(?:\s+#.*)?$", served, re.M)
    words = command.split()
    assert words[:5] == ["python", "-m", "weather", "serve", "--http"], command
    registry = words[words.index("--registry") + 1]
    assert registry == "my_tools:registry" and "my_tools.py` holds the code above" in served
    (folder / "my_tools.py").write_text(blocks(QUICKSTART, "python")[0], "utf-8")
    installed = {
        **env,
        "PYTHONPATH": os.pathsep.join([str(folder), str(folder / "out"), env["PYTHONPATH"]]),
    }
    client = block_with("weather.client.connect")
    pieces, outputs = chunks(client)
    with serving("weather", registry, installed, *words[7:], cwd=folder) as url:
        code = "\n".join(pieces).replace("http://127.0.0.1:8000/mcp", url)
        assert code != "\n".join(pieces), "the client block no longer connects to the served URL"
        printed = run_python(folder, installed, code)
    assert printed == "".join(outputs)
