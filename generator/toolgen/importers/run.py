"""One import, end to end: read a file, turn each definition into a spec, write one YAML file per tool.

`import_text` is pure (text in, tools and refusals out), and `import_items` the same for
definitions already read (a server's `tools/list` items, Python functions); `write_specs` is
the only part that touches the disk, and it never replaces a file unless asked to.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from toolgen.importers import anthropic, bfcl, gemini, mcp, openai, python
from toolgen.importers.common import SourceError, UnsupportedSchema
from toolgen.importers.emit import dump_tool
from toolgen.importers.names import NameTable
from toolgen.importers.normalize import normalize_tool
from toolgen.importers.verify import lint_errors, reason

FORMATS: dict[str, ModuleType] = {
    "openai": openai,
    "anthropic": anthropic,
    "gemini": gemini,
    "mcp": mcp,
    "bfcl": bfcl,
    "mcp-server": mcp,
    "python": python,
}


class ImportFileError(SourceError):
    """The file is neither JSON nor JSON Lines."""


@dataclass
class Imported:
    tool: dict[str, Any]
    notes: list[str]
    origin: str  # where in the input: "item 3", "line 7", "line 7, tool 2"


@dataclass
class Refused:
    origin: str
    name: str | None
    reason: str


@dataclass
class ImportResult:
    imported: list[Imported] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    duplicates: list[tuple[str, str]] = field(
        default_factory=list
    )  # (origin, origin of the identical tool)


def read_items(text: str) -> list[tuple[str, Any]]:
    """(origin, value) of each definition-or-container: a JSON document's list items, or JSON Lines."""
    try:
        data = json.loads(text)
    except ValueError as whole:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2:
            raise ImportFileError(f"not JSON: {whole}") from None
        items: list[tuple[str, Any]] = []
        for n, line in lines:
            try:
                items.append((f"line {n}", json.loads(line)))
            except ValueError as exc:
                if not items:  # not JSON Lines either: report the error of the whole document
                    raise ImportFileError(f"neither JSON nor JSON Lines: {whole}") from None
                items.append((f"line {n}", _BadLine(str(exc))))
        return items
    if isinstance(data, list):
        return [(f"item {i}", value) for i, value in enumerate(data, 1)]
    return [("the document", data)]


@dataclass
class _BadLine:
    error: str


def import_text(text: str, fmt: str, taken: Iterable[str] = ()) -> ImportResult:
    """Every definition in `text` (in format `fmt`) as a spec tool, uniquely named, or refused with a reason."""
    return import_items(read_items(text), fmt, taken)


def import_items(items: list[tuple[str, Any]], fmt: str, taken: Iterable[str] = ()) -> ImportResult:
    """`import_text` for definitions already read: (origin, definition or container) pairs."""
    reader = FORMATS[fmt]
    result = ImportResult()
    names = NameTable(taken)
    seen: dict[str, list[tuple[dict[str, Any], str]]] = {}  # name as normalised -> (tool, origin)
    for origin, item in items:
        if isinstance(item, _BadLine):
            result.refused.append(Refused(origin, None, f"not JSON: {item.error}"))
            continue
        definitions = reader.unwrap(item)
        for j, definition in enumerate(definitions, 1):
            where = origin if len(definitions) == 1 else f"{origin}, tool {j}"
            name = _name_of(definition)
            try:
                record, notes = reader.record(definition)
                tool, more = normalize_tool(record)
            except UnsupportedSchema as exc:
                result.refused.append(Refused(where, name, str(exc)))
                continue
            same = next((o for t, o in seen.get(tool["name"], []) if t == tool), None)
            if same is not None:
                result.duplicates.append((where, same))
                continue
            seen.setdefault(tool["name"], []).append((tool, where))
            unique, note = names.reserve(tool["name"])
            if note:
                tool = {**tool, "name": unique}
            result.imported.append(Imported(tool, notes + more + ([note] if note else []), where))
    _refuse_what_lint_refuses(result)
    return result


def _refuse_what_lint_refuses(result: ImportResult) -> None:
    errors = lint_errors([imported.tool for imported in result.imported])
    if not errors:
        return
    if -1 in errors:  # not about one tool: a bug here, never the input's fault
        raise RuntimeError(
            "import produced a spec set lint refuses: " + "; ".join(d.text() for d in errors[-1])
        )
    kept = []
    for i, imported in enumerate(result.imported):
        if i in errors:
            result.refused.append(
                Refused(
                    imported.origin, imported.tool["name"], "; ".join(reason(d) for d in errors[i])
                )
            )
        else:
            kept.append(imported)
    result.imported = kept


def _name_of(definition: Any) -> str | None:
    """The name of a definition, for a refusal: top level, inside OpenAI's `function`, a Python function's."""
    if callable(definition):
        return getattr(definition, "__name__", None)
    if not isinstance(definition, dict):
        return None
    name = definition.get("name")
    if name is None and isinstance(definition.get("function"), dict):
        name = definition["function"].get("name")
    return name if isinstance(name, str) else None


def existing_names(out: Path) -> set[str]:
    """Tool names defined under `out` in files an import would not replace (`<name>.yaml` is replaced)."""
    if not out.is_dir():
        return set()
    from toolgen.load.specs import load_specs

    specs = load_specs(out)
    taken: set[str] = set()
    for source in specs.tools:
        name = source.data.get("name")
        if isinstance(name, str) and source.doc.display != f"{name}.yaml":
            taken.add(name)
    return taken


def spec_file(tool: dict[str, Any]) -> str:
    return f"{tool['name']}.yaml"


def render(imported: Imported, fmt: str, source: str) -> str:
    header = [f"Imported by `toolgen import --from {fmt}` from {source} ({imported.origin})."]
    return dump_tool(imported.tool, imported.notes, header)


def write_specs(
    result: ImportResult, out: Path, fmt: str, source: str, force: bool = False
) -> tuple[list[str], list[str]]:
    """Write one spec per imported tool; returns (written, skipped because the file exists)."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[str] = []
    skipped: list[str] = []
    for imported in result.imported:
        relative = spec_file(imported.tool)
        target = out / relative
        if target.exists() and not force:
            skipped.append(relative)
            continue
        atomic_write(target, render(imported, fmt, source))
        written.append(relative)
    return written, skipped


def atomic_write(target: Path, text: str) -> None:
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
