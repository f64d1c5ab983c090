"""Load spec files (YAML or JSON) into plain JSON data with a source map.

libyaml composes the node graph (positions for every node, at C speed); a YAML 1.2
core-schema resolver tags scalars (so `no` stays a string), and `_Builder` turns
nodes into plain data while bounding size, depth and alias expansion. JSON files are
parsed by `json` for exact JSON semantics; their positions are computed only when a
diagnostic needs one.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostic, Severity

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_NODES = 200_000  # after alias expansion
MAX_DEPTH = 64
# libyaml's composer recurses on the C stack: refuse absurd flow nesting before it sees it.
MAX_FLOW_DEPTH = 256

Position = tuple[int, int]


def escape_pointer(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def child_pointer(pointer: str, token: str | int) -> str:
    return f"{pointer}/{escape_pointer(str(token))}"


@dataclass
class SourceMap:
    """JSON pointer -> (line, col), 1-based, for values and for mapping keys."""

    values: dict[str, Position] = field(default_factory=dict)
    keys: dict[str, Position] = field(default_factory=dict)
    compute: Callable[[], SourceMap] | None = None

    def position(self, pointer: str, *, key: bool = False) -> Position:
        if self.compute is not None:  # lazily located (JSON files)
            computed = self.compute()
            self.values, self.keys, self.compute = computed.values, computed.keys, None
        table = self.keys if key else self.values
        if pointer in table:
            return table[pointer]
        # The nearest located ancestor: a missing key is reported at its parent.
        while pointer:
            pointer = pointer.rsplit("/", 1)[0]
            if pointer in self.values:
                return self.values[pointer]
        return (1, 1)


@dataclass
class Document:
    """One spec file: its data (plain JSON values) and where each value came from."""

    path: Path
    display: str  # path as shown in diagnostics (relative to the specs root)
    data: Any
    source: SourceMap

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


class LoadError(Exception):
    def __init__(self, line: int, col: int, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.line, self.col, self.message, self.hint = line, col, message, hint


# --- YAML 1.2 core schema -------------------------------------------------------

_CORE = {
    "tag:yaml.org,2002:null": r"^(?:~|null|Null|NULL|)$",
    "tag:yaml.org,2002:bool": r"^(?:true|True|TRUE|false|False|FALSE)$",
    "tag:yaml.org,2002:int": r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$",
    "tag:yaml.org,2002:float": (
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
}


class _CoreResolver(yaml.resolver.BaseResolver):
    pass


for _tag, _pattern in _CORE.items():
    _first = list("-+0123456789.~ntfNTF") + [""]
    _CoreResolver.add_implicit_resolver(_tag, re.compile(_pattern), _first)


if yaml.__with_libyaml__:

    class _Loader(yaml.cyaml.CParser, _CoreResolver):  # type: ignore[misc]
        def __init__(self, stream: str) -> None:
            yaml.cyaml.CParser.__init__(self, stream)
            _CoreResolver.__init__(self)

else:  # pragma: no cover - PyYAML built without libyaml

    class _Loader(  # type: ignore[no-redef]
        yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer, _CoreResolver
    ):
        def __init__(self, stream: str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            _CoreResolver.__init__(self)


def _scalar(node: yaml.ScalarNode) -> Any:
    tag, text = node.tag, node.value
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool":
        return text.lower() == "true"
    if tag == "tag:yaml.org,2002:int":
        if text.startswith(("0o", "0x")):
            return int(text[2:], 8 if text[1] == "o" else 16)
        return int(text)
    if tag == "tag:yaml.org,2002:float":
        value = float(text.replace(".inf", "inf").replace(".Inf", "inf").replace(".INF", "inf").lower())
        if not math.isfinite(value):
            raise LoadError(*_pos(node), f"{text!r} is not a JSON number", "write a finite number")
        return value
    if tag == "tag:yaml.org,2002:str":
        return text
    raise LoadError(*_pos(node), f"unsupported YAML tag {tag!r}", "specs hold plain JSON data: drop the tag")


def _pos(node: yaml.Node) -> Position:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


class _Builder:
    """Nodes -> plain data + source map, with alias expansion bounded by MAX_NODES."""

    def __init__(self) -> None:
        self.source = SourceMap()
        self.count = 0

    def build(self, node: yaml.Node, pointer: str = "", depth: int = 0, active: frozenset[int] = frozenset()) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise LoadError(*_pos(node), f"the document expands to more than {MAX_NODES} values",
                            "YAML aliases multiply content; use $ref instead")
        if depth > MAX_DEPTH:
            raise LoadError(*_pos(node), f"nesting deeper than {MAX_DEPTH} levels")
        if id(node) in active:
            raise LoadError(*_pos(node), "an alias refers to a node that contains it")
        self.source.values[pointer] = _pos(node)
        if isinstance(node, yaml.ScalarNode):
            return _scalar(node)
        inner = active | {id(node)}
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, child_pointer(pointer, i), depth + 1, inner) for i, item in enumerate(node.value)]
        mapping: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise LoadError(*_pos(key_node), "mapping keys must be strings")
            key = key_node.value  # JSON keys are strings, whatever YAML would resolve them to
            child = child_pointer(pointer, key)
            if key in mapping:
                raise LoadError(*_pos(key_node), f"duplicate key {key!r}", "each key may appear once in a mapping")
            self.source.keys[child] = _pos(key_node)
            mapping[key] = self.build(value_node, child, depth + 1, inner)
        return mapping


def _flow_depth(text: str) -> int:
    """An upper bound of flow-collection nesting, ignoring quoted text (linear, no recursion)."""
    depth = deepest = 0
    for token in re.finditer(r"""'(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|[\[\]{}]""", text):
        ch = token.group()
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
    return deepest


def _compose(text: str) -> yaml.Node | None:
    if _flow_depth(text) > MAX_FLOW_DEPTH:
        raise LoadError(1, 1, f"flow collections nested deeper than {MAX_FLOW_DEPTH} levels")
    loader = _Loader(text)
    try:
        return loader.get_single_node()  # type: ignore[no-any-return]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        raise LoadError(line, col, f"invalid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise LoadError(1, 1, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()


def parse_yaml(text: str) -> tuple[Any, SourceMap]:
    node = _compose(text)
    if node is None:
        return None, SourceMap(values={"": (1, 1)})
    builder = _Builder()
    data = builder.build(node)
    return data, builder.source


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def parse_json(text: str) -> tuple[Any, SourceMap]:
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise LoadError(exc.lineno, exc.colno, f"invalid JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise LoadError(1, 1, f"invalid JSON: {exc}") from None
    if _depth(data) > MAX_DEPTH:
        raise LoadError(1, 1, f"nesting deeper than {MAX_DEPTH} levels")

    def locate() -> SourceMap:
        # JSON is YAML 1.2 flow syntax: libyaml gives the positions, or we fall back to 1:1.
        try:
            return parse_yaml(text)[1]
        except LoadError:
            return SourceMap(values={"": (1, 1)})

    return data, SourceMap(compute=locate)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _depth(value: Any) -> int:
    stack, deepest = [(value, 0)], 0
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            break
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children)
    return deepest


def load_file(path: Path, display: str) -> Document:
    """Read and parse one spec file; raises LoadError with a position on bad input."""
    raw = path.read_bytes()
    if len(raw) > MAX_FILE_BYTES:
        raise LoadError(1, 1, f"file is larger than {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoadError(1, exc.start + 1, "file is not UTF-8") from None
    parse = parse_json if path.suffix.lower() == ".json" else parse_yaml
    data, source = parse(text)
    return Document(path=path, display=display, data=data, source=source)
