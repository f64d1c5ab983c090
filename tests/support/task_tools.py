"""The tools the MCP task tests serve (tests/functional/serving/test_mcp_tasks*.py), written
once: the schemas of their specs and the module of their implementations, which the test
writes beside the generated package for its servers and workers to import.

The module (`implementations`) opens with what every one has: `package` (the generated
package, named by `$TASKS_PACKAGE`), `note(*words)` (one line appended to `$TASKS_NOTES` in
one write, so that lines of several processes never mix) and `made(tool)`, an async tool
that notes `<tool> started <pid>`, sleeps `n` seconds (noting `<tool> cancelled` when it is
cancelled) and notes `<tool> done` before returning `{"n": n}`; then the test's own code,
which defines `registry()`.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from tests.support.mcp_support import python_path

NUMBER = {"type": "object", "properties": {"n": {"type": "number", "description": "Seconds."}}}
RETURNS = {"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]}

HEAD = """
import asyncio, os
from importlib import import_module
from pathlib import Path

from tests.support.runtime_support import interface

package = import_module(os.environ["TASKS_PACKAGE"])
NOTES = Path(os.environ["TASKS_NOTES"])


def note(*words):
    fd = os.open(NOTES, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, (" ".join(words) + "\\n").encode())
    finally:
        os.close(fd)


def made(tool):
    class Slow(interface(package, tool)):
        async def run(self, args):
            note(tool, "started", str(os.getpid()))
            try:
                await asyncio.sleep(args.n or 0)
            except asyncio.CancelledError:
                note(tool, "cancelled")
                raise
            note(tool, "done")
            return {"n": args.n}

    return Slow()
"""


def implementations(own: str) -> str:
    """The module's text: the head above, then `own` (which defines `registry()`)."""
    return HEAD + own


def environment(package: ModuleType, folder: Path, module: str, own: str) -> dict[str, str]:
    """The environment of the test's servers and workers: `module` (the implementations, with
    `own`) written to `folder`, importable with the package; notes in `folder/notes/`; no
    store of the test run's own."""
    (folder / f"{module}.py").write_text(implementations(own), "utf-8")
    (folder / "notes").mkdir(exist_ok=True)
    out = Path(package.__file__ or "").parent.parent
    env = {**python_path(out, folder), "TASKS_PACKAGE": package.__name__}
    env["TASKS_NOTES"] = str(folder / "notes" / "notes.txt")
    env.pop("TOOLGEN_STORE", None)
    return env


def notes(env: dict[str, str]) -> list[str]:
    """What the tools noted so far, line by line."""
    path = Path(env["TASKS_NOTES"])
    return path.read_text().splitlines() if path.exists() else []
