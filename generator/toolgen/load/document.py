"""Load spec files (YAML or JSON) into plain JSON data with a source map.

YAML goes through `yaml12` (YAML 1.2 semantics, bounded). JSON files are parsed by
`json` for exact JSON semantics; their positions are computed, by one linear scan,
only when a diagnostic needs one.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.files import read_spec
from toolgen.load.source_map import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_NODES,
    LoadError,
    Position,
    SourceMap,
    line_col,
)
from toolgen.load.yaml12 import parse_yaml
from toolgen.schema.pointer import child

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "Document",
    "LoadError",
    "Position",
    "SourceMap",
    "load_bytes",
    "load_file",
    "parse_json",
    "parse_yaml",
]


@dataclass
class Document:
    """One spec file: its data (plain JSON values) and where each value came from."""

    path: Path
    display: str  # path as shown in diagnostics (relative to the specs root)
    data: Any
    source: SourceMap
    sha256: str = ""  # of the file's bytes (load.specs.SpecSet.sha256 digests the set)

    def diagnostic(
        self,
        pointer: str,
        rule: str,
        message: str,
        *,
        hint: str = "",
        key: bool = False,
        severity: Severity = Severity.ERROR,
    ) -> Diagnostic:
        line, col = self.source.position(pointer, key=key)
        return Diagnostic(self.display, line, col, rule, severity, message, pointer, hint)


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 overflows to inf
        raise ValueError(f"{text} is not a finite number")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]|[^\s\[\]{},:"]+')


def _nonfinite_position(text: str) -> Position:
    """Where the first NaN, Infinity or overflowing number is (json's hooks get no position)."""
    for token in _JSON_TOKEN.finditer(text):
        word = token.group()
        if (
            word in ("NaN", "Infinity", "-Infinity")
            or word[0] in "-0123456789"
            and not math.isfinite(float(word))
        ):
            return line_col(text, token.start())
    return (1, 1)


def parse_json(text: str) -> tuple[Any, SourceMap]:
    try:
        data = json.loads(
            text,
            object_pairs_hook=_reject_duplicates,
            parse_constant=_no_constant,
            parse_float=_finite,
        )
    except json.JSONDecodeError as exc:
        trailing = exc.msg.startswith("Expecting") and text[: exc.pos].rstrip().endswith(",")
        raise LoadError(
            exc.lineno,
            exc.colno,
            f"invalid JSON: {exc.msg}",
            "JSON allows no comma after the last item" if trailing else "",
        ) from None
    except (RecursionError, ValueError) as exc:
        deep = isinstance(exc, RecursionError)
        message = f"nesting deeper than {MAX_DEPTH} levels" if deep else f"invalid JSON: {exc}"
        if deep or message.startswith("invalid JSON: duplicate key"):
            _json_source(text)  # raises where the nesting or the duplicate is
            raise LoadError(1, 1, message) from None
        raise LoadError(*_nonfinite_position(text), message, "write a finite number") from None
    if _depth(data) > MAX_DEPTH:
        _json_source(text)
        raise LoadError(1, 1, f"nesting deeper than {MAX_DEPTH} levels")
    return data, SourceMap(compute=partial(_json_source, text))  # (a partial: picklable)


def _json_source(text: str) -> SourceMap:
    """Positions in a JSON text that `json` has accepted: one linear pass over its tokens.

    Not libyaml: JSON is YAML flow syntax, but libyaml rejects some valid JSON (surrogate
    pair escapes, raw U+007F-U+009F, keys over 1024 characters) and counts U+0085, U+2028
    and U+2029 as line breaks (tests/unit/load/test_load.py pins these cases).
    """
    source = SourceMap()
    stack: list[list[Any]] = []  # [pointer, index or key, keys seen] of each open array or object
    line, line_start, scanned, expect_key = 1, 0, 0, False
    next_break = text.find("\n")  # -1: none left
    for token in _JSON_TOKEN.finditer(text):
        start, word = token.start(), token.group()
        if 0 <= next_break < start:  # line breaks only occur between tokens
            line += text.count("\n", scanned, start)
            line_start = text.rfind("\n", scanned, start) + 1
            next_break = text.find("\n", start)
        scanned = token.end()
        if word in ",:":
            if word == "," and stack:
                if isinstance(stack[-1][1], int):
                    stack[-1][1] += 1
                else:
                    expect_key = True
            continue
        if word in "]}":
            stack.pop()
            expect_key = False  # `{}`
            continue
        position = (line, start - line_start + 1)
        if expect_key:
            key = json.loads(word) if "\\" in word else word[1:-1]  # no escape: as written
            if key in stack[-1][2]:
                raise LoadError(
                    *position,
                    f"invalid JSON: duplicate key {key!r}",
                    "each key may appear once in an object",
                )
            stack[-1][1] = key
            stack[-1][2].add(key)
            source.keys[child(stack[-1][0], key)] = position
            expect_key = False
            continue
        if len(stack) > MAX_DEPTH:
            raise LoadError(*position, f"nesting deeper than {MAX_DEPTH} levels")
        pointer = child(*stack[-1][:2]) if stack else ""
        source.values[pointer] = position
        if word in "[{":
            stack.append([pointer, 0 if word == "[" else None, set()])
            expect_key = word == "{"
    return source


def _depth(value: Any) -> int:
    stack, deepest = [(value, 0)], 0
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            break
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        stack.extend((child, depth + 1) for child in children)
    return deepest


def load_file(
    path: Path, display: str, *, root: Path | None = None, limit: int = MAX_FILE_BYTES
) -> Document:
    """Read and parse one spec file; raises LoadError with a position (and rule) on bad input.

    With `root`, the file must lie inside it once symlinks are followed (load/files.py).
    """
    return load_bytes(read_spec(path, root, limit), path, display)


def load_bytes(raw: bytes, path: Path, display: str) -> Document:
    """Parse one spec file's bytes (read from disk, or from a git revision); JSON by the suffix
    of `path`, YAML otherwise. Raises LoadError with a position on bad input."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", "replace")
        message = f"file is not UTF-8: byte {raw[exc.start]:#04x} cannot be decoded"
        raise LoadError(*line_col(before, len(before)), message, "save the file as UTF-8") from None
    parse = parse_json if path.suffix.lower() == ".json" else parse_yaml
    data, source = parse(text)
    return Document(
        path=path, display=display, data=data, source=source, sha256=hashlib.sha256(raw).hexdigest()
    )
