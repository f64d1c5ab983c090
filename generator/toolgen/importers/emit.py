"""Imported tools as readable, deterministic YAML, with the import's notes as comments.

Key order is kept, collections are written in block style, and a string is quoted
whenever a YAML reader could take it for something else: toolgen's YAML 1.2 loader
(`0o17`, `1e3`), YAML 1.1 readers such as editors and older tools (`no`, `on`, `y`,
`2024-01-01`, `1:30`), and anything PyYAML already knows to quote. Multi-line text is
written as a literal block (`|`) where YAML can hold it exactly, double-quoted otherwise.
Nothing depends on the machine: no timestamps, no hash order, no line folding.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from toolgen.load.yaml12 import (
    _CORE,
)  # the patterns toolgen's loader resolves (one source of truth)

SCHEMA_COMMENT = "# yaml-language-server: $schema={schema}"
# YAML 1.1 words PyYAML does not quote by itself (it knows yes/no/on/off, not y/n).
_YAML11_EXTRA = r"(?:y|Y|n|N)"


class _Dumper(yaml.SafeDumper):
    """SafeDumper that also quotes what YAML 1.2 core (and more of 1.1) would misread."""

    def ignore_aliases(self, data: Any) -> bool:
        return True  # repeated sub-schemas are written out, never as &anchors

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)  # list items indented under their key


for _tag, _pattern in {**_CORE, "tag:yaml.org,2002:bool#1.1": _YAML11_EXTRA}.items():
    _Dumper.add_implicit_resolver(_tag, re.compile(rf"^{_pattern}$"), None)


_BREAKS = re.compile("[\x85\u2028\u2029]")


def _str(dumper: _Dumper, text: str) -> yaml.ScalarNode:
    if _BREAKS.search(text):  # YAML 1.1 line breaks: written raw, a reader would fold them
        style: str | None = '"'
    else:
        style = "|" if "\n" in text and _literal_safe(text) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


def _literal_safe(text: str) -> bool:
    """A literal block keeps text exactly unless it has trailing spaces on a line, tabs or control characters."""
    return not re.search(
        r"[ \t]\n|[ \t]$|[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]", text
    ) and not text.startswith((" ", "\n"))


_Dumper.add_representer(str, _str)


def dump_data(data: Any) -> str:
    """YAML text for plain JSON data, block style, keys in their order."""
    text: str = yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=float("inf"),
        indent=2,
    )
    return text


def comments(notes: list[str], indent: str = "") -> str:
    """The notes as YAML comment lines (one per note; line breaks inside a note become spaces)."""
    if not notes:
        return ""
    lines = [
        f"{indent}# toolgen import: {len(notes)} change{'s' if len(notes) != 1 else ''} to the original"
    ]
    lines += [f"{indent}# - {_printable(' '.join(note.split()))}" for note in notes]
    return "\n".join(lines) + "\n"


def _printable(text: str) -> str:
    """Characters a YAML comment cannot hold, as escapes."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufeff\ufffe\uffff]")


def dump_tool(tool: dict[str, Any], notes: list[str], header: list[str] | None = None) -> str:
    """One spec file holding one tool, the notes above it."""
    return _header(header) + comments(notes) + dump_data(tool)


def dump_tools(
    tools: list[tuple[dict[str, Any], list[str]]], header: list[str] | None = None
) -> str:
    """One spec file holding a `tools:` list, each tool's notes above it."""
    parts = [_header(header), "tools:\n"]
    for tool, notes in tools:
        parts.append(comments(notes, "  "))
        parts.append(_indent(dump_data([tool]), "  "))
    return "".join(parts)


def _header(lines: list[str] | None) -> str:
    """Comment lines, one each whatever the text holds (a command or a file name may have line breaks)."""
    return "".join(f"# {_printable(' '.join(line.split()))}\n" for line in lines or [])


def _indent(text: str, prefix: str) -> str:
    return "".join(
        prefix + line if line.strip("\n") else line for line in text.splitlines(keepends=True)
    )
