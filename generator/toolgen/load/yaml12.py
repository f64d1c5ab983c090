"""YAML 1.2 text -> plain JSON data with a source map, from libyaml's event stream.

libyaml parses (positions for every event, at C speed); `_Builder` turns the events
into plain data without recursion, resolving scalars with the YAML 1.2 core schema
(so `no` stays a string) and bounding size, depth and alias expansion as it goes.
libyaml's own composer is not used: it recurses on the C stack once per nesting level
and crashes the process on input such as 100,000 nested `- ` or `[`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from toolgen.load.source_map import MAX_DEPTH, MAX_NODES, LoadError, Position, SourceMap, line_col
from toolgen.schema.pointer import child, escape

# --- YAML 1.2 core schema -------------------------------------------------------

_CORE = {
    "tag:yaml.org,2002:null": r"(?:~|null|Null|NULL|)",
    "tag:yaml.org,2002:bool": r"(?:true|True|TRUE|false|False|FALSE)",
    "tag:yaml.org,2002:int": r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)",
    "tag:yaml.org,2002:float": (
        r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))"
    ),
}
_CORE_PATTERNS = {tag: re.compile(pattern) for tag, pattern in _CORE.items()}
# The four as one pattern, tried in the same order: the group that matched names the tag.
_GROUPS = {f"t{i}": tag for i, tag in enumerate(_CORE)}
_RESOLVE = re.compile("|".join(f"(?P<t{i}>{pattern})" for i, pattern in enumerate(_CORE.values())))
_STR = "tag:yaml.org,2002:str"
_COLLECTION_TAGS = (None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


class _PyParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's own event parser: slower than libyaml's, but it hands out the events of deep
    flow collections as it goes, where libyaml (PyYAML 6.0.4 and later) first scans ahead and
    stops at 1,000 levels with an error of its own."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)


if yaml.__with_libyaml__:
    from yaml._yaml import CParser as _CParser

    _Parser: Callable[[str], Any] = _CParser
else:  # pragma: no cover - PyYAML built without libyaml
    _Parser = _PyParser
_LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"


def _pos(event: yaml.Event) -> Position:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _tag(event: yaml.ScalarEvent) -> str:
    """The core-schema tag of a scalar: plain scalars are resolved, quoted ones are strings."""
    if event.tag not in (None, "!"):
        return str(event.tag)
    if event.tag is None and event.implicit[0]:
        found = _RESOLVE.fullmatch(event.value)
        if found is not None:
            return _GROUPS[str(found.lastgroup)]
    return _STR


def _scalar(event: yaml.ScalarEvent) -> Any:
    tag, text = _tag(event), event.value
    if tag == _STR:
        return text
    if tag not in _CORE_PATTERNS:
        raise LoadError(
            *_pos(event),
            f"unsupported YAML tag {tag!r}",
            "specs hold plain JSON data: drop the tag",
        )
    if not _CORE_PATTERNS[tag].fullmatch(text):  # an explicit tag on text that is not of that type
        raise LoadError(
            *_pos(event),
            f"{text!r} is not a valid {tag.rsplit(':', 1)[-1]}",
            "drop the tag, or quote the value to make it a string",
        )
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool":
        return text.lower() == "true"
    if tag == "tag:yaml.org,2002:int":
        try:
            if text.startswith(("0o", "0x")):
                return int(text[2:], 8 if text[1] == "o" else 16)
            return int(text)
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
            raise LoadError(
                *_pos(event), "integer has too many digits", "write it as a string"
            ) from None
    value = math.nan if text.lower().lstrip("+-") in (".inf", ".nan") else float(text)
    if not math.isfinite(value):  # .inf, .nan, and 1e999, which overflows
        raise LoadError(*_pos(event), f"{text!r} is not a JSON number", "write a finite number")
    return value


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


@dataclass
class _Anchor:
    """An anchored node: its data and source entries (relative to `pointer`), for aliases to copy."""

    value: Any = None
    pointer: str = ""
    key_text: str | None = None  # a scalar's text, for an alias used as a mapping key
    values: list[tuple[str, Position]] = field(default_factory=list)
    keys: list[tuple[str, Position]] = field(default_factory=list)
    height: int = 0
    complete: bool = False


@dataclass(slots=True)
class _Frame:
    """An open collection while its events stream in."""

    value: dict[str, Any] | list[Any]
    pointer: str
    anchor: str | None
    first_value: int  # index into the builder's logs where this collection's entries start
    first_key: int
    depth: int
    deepest: int  # the depth of its deepest value so far
    key: str | None = None  # a mapping's pending key, once read
    mapping: bool = False  # value is a dict
    key_pointer: str = ""  # the pointer of the pending key's value


class _Builder:
    """Events -> plain data + source map, without recursion.

    libyaml's own composer recurses on the C stack once per nesting level, so a file of
    100,000 `- ` or `[` crashes the process; here depth, size and alias expansion are
    bounded while the events stream in, and the first violation stops the parse.
    """

    def __init__(self, parser: Any) -> None:
        self.parser = parser
        self.values: list[tuple[str, Position]] = []
        self.keys: list[tuple[str, Position]] = []
        self.anchors: dict[str, _Anchor] = {}
        self.count = 0

    def source(self) -> SourceMap:
        return SourceMap(values=dict(self.values), keys=dict(self.keys))

    def build(self) -> Any:
        """Consume the events of one document's root node and return its data.

        The common events (a plain key, an anchorless scalar) are handled inline, with the
        event's exact class compared: this loop runs once per event of every spec file.
        """
        stack: list[_Frame] = []
        get_event = self.parser.get_event
        add_value, add_key = self.values.append, self.keys.append
        while True:
            event = get_event()
            kind = event.__class__
            if kind is _MAPPING_END or kind is _SEQUENCE_END:
                frame = stack.pop()
                if frame.anchor is not None:
                    self._complete(frame)
                value, deepest = frame.value, frame.deepest
            else:
                depth = len(stack)
                if depth:
                    top = stack[-1]
                    if top.mapping:
                        key = top.key
                        if key is None:  # this event is the mapping's next key
                            if kind is _SCALAR and event.anchor is None:
                                key = event.value  # JSON keys are strings, whatever YAML says
                                if key in top.value:
                                    raise LoadError(
                                        *_pos(event),
                                        f"duplicate key {key!r}",
                                        "each key may appear once in a mapping",
                                    )
                                top.key = key
                                top.key_pointer = f"{top.pointer}/{escape(key)}"
                                mark = event.start_mark  # both parsers mark every event
                                add_key((top.key_pointer, (mark.line + 1, mark.column + 1)))
                            else:
                                self._key(top, event)
                            continue
                        pointer = top.key_pointer
                    else:
                        pointer = f"{top.pointer}/{len(top.value)}"
                else:
                    pointer = ""
                if kind is _SCALAR and event.anchor is None:
                    self.count += 1
                    if self.count > MAX_NODES or depth > MAX_DEPTH:
                        self._count(event, 0, depth)
                    mark = event.start_mark
                    add_value((pointer, (mark.line + 1, mark.column + 1)))
                    text, tag = event.value, event.tag
                    if tag is None and event.implicit[0]:
                        value = text if _RESOLVE.fullmatch(text) is None else _scalar(event)
                    elif tag is None or tag == "!":  # quoted, or the non-specific tag
                        value = text
                    else:
                        value = _scalar(event)
                    deepest = depth
                else:
                    value, deepest = self._node(event, pointer, depth, stack)
                    if value is _OPEN:
                        continue
            if not stack:
                return value
            parent = stack[-1]
            if deepest > parent.deepest:
                parent.deepest = deepest
            container: Any = parent.value  # a dict when parent.mapping, else a list
            if parent.mapping:
                container[parent.key] = value
                parent.key = None
            else:
                container.append(value)

    def _count(self, event: yaml.Event, n: int, depth: int) -> None:
        self.count += n
        if self.count > MAX_NODES:
            raise LoadError(
                *_pos(event),
                f"the document expands to more than {MAX_NODES} values",
                "YAML aliases multiply content; use $ref instead",
            )
        if depth > MAX_DEPTH:
            raise LoadError(*_pos(event), f"nesting deeper than {MAX_DEPTH} levels")

    def _node(
        self, event: yaml.Event, pointer: str, depth: int, stack: list[_Frame]
    ) -> tuple[Any, int]:
        """A value starting at `event`: a scalar or alias (returned), or a collection (pushed: _OPEN)."""
        if isinstance(event, yaml.AliasEvent):
            anchor = self._anchor(event)
            self._count(event, len(anchor.values), depth + anchor.height)
            start = len(anchor.pointer)
            self.values.append((pointer, _pos(event)))
            self.values.extend((pointer + p[start:], at) for p, at in anchor.values[1:])
            self.keys.extend((pointer + p[start:], at) for p, at in anchor.keys)
            return _copy(anchor.value), depth + anchor.height
        self._count(event, 1, depth)
        self.values.append((pointer, _pos(event)))
        if isinstance(event, yaml.ScalarEvent):
            value = _scalar(event)
            if event.anchor is not None:
                self.anchors[event.anchor] = _Anchor(
                    value, pointer, event.value, [(pointer, _pos(event))], [], 0, True
                )
            return value, depth
        assert isinstance(
            event, yaml.CollectionStartEvent
        )  # the parser's grammar: nothing else starts a node
        if event.tag not in _COLLECTION_TAGS:
            raise LoadError(
                *_pos(event),
                f"unsupported YAML tag {event.tag!r}",
                "specs hold plain JSON data: drop the tag",
            )
        if event.anchor is not None:
            self.anchors[event.anchor] = _Anchor(
                pointer=pointer
            )  # open: an alias to it now is recursive
        container: dict[str, Any] | list[Any] = (
            {} if isinstance(event, yaml.MappingStartEvent) else []
        )
        stack.append(
            _Frame(
                container,
                pointer,
                event.anchor,
                len(self.values) - 1,
                len(self.keys),
                depth,
                depth,
                mapping=type(container) is dict,
            )
        )
        return _OPEN, depth

    def _anchor(self, event: yaml.AliasEvent) -> _Anchor:
        anchor = self.anchors.get(event.anchor) if event.anchor is not None else None
        if anchor is None:
            raise LoadError(
                *_pos(event),
                f"alias *{event.anchor} refers to no anchor",
                "define &name before *name",
            )
        if not anchor.complete:
            raise LoadError(
                *_pos(event),
                f"alias *{event.anchor} refers to a node that contains it",
                "recursive structures cannot be plain JSON data",
            )
        return anchor

    def _key(self, frame: _Frame, event: yaml.Event) -> None:
        if isinstance(event, yaml.AliasEvent) and self._anchor(event).key_text is not None:
            key = self._anchor(event).key_text
        elif isinstance(event, yaml.ScalarEvent):
            key = event.value  # JSON keys are strings, whatever YAML would resolve them to
            if event.anchor is not None:
                self.anchors[event.anchor] = _Anchor(key, "", key, [("", _pos(event))], [], 0, True)
        else:
            raise LoadError(
                *_pos(event),
                "mapping keys must be strings",
                "write the key as a plain or quoted string",
            )
        assert isinstance(frame.value, dict) and key is not None
        if key in frame.value:
            raise LoadError(
                *_pos(event), f"duplicate key {key!r}", "each key may appear once in a mapping"
            )
        frame.key, frame.key_pointer = key, child(frame.pointer, key)
        self.keys.append((frame.key_pointer, _pos(event)))

    def _complete(self, frame: _Frame) -> None:
        assert frame.anchor is not None
        anchor = self.anchors[frame.anchor]
        if anchor.pointer != frame.pointer or anchor.complete:
            return  # the anchor was redefined inside its own node; the inner one wins
        anchor.value, anchor.complete = frame.value, True
        anchor.values = self.values[frame.first_value :]
        anchor.keys = self.keys[frame.first_key :]
        anchor.height = frame.deepest - frame.depth


_OPEN = object()
_SCALAR, _MAPPING_END, _SEQUENCE_END = yaml.ScalarEvent, yaml.MappingEndEvent, yaml.SequenceEndEvent


def _error_position(text: str, exc: yaml.YAMLError) -> Position:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        if mark is not None:
            return (mark.line + 1, mark.column + 1)
    if isinstance(exc, yaml.reader.ReaderError):
        if yaml.__with_libyaml__:  # a byte offset into the UTF-8 text
            before = text.encode("utf-8", "surrogatepass")[: exc.position].decode("utf-8", "ignore")
        else:  # PyYAML's reader: a character index
            before = text[: exc.position]
        return line_col(before, len(before))
    return (1, 1)


def _error_message(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.MarkedYAMLError):
        return str(exc.problem or exc.context or "invalid YAML")
    if isinstance(exc, yaml.reader.ReaderError):
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return f"character U+{code:04X} is not allowed in YAML ({exc.reason})"
    return str(exc).splitlines()[0]


def _error_hint(exc: yaml.YAMLError) -> str:
    """Where the construct that failed began (`while parsing a block mapping` at 6:5)."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.context and exc.context_mark and exc.problem:
        mark = exc.context_mark
        return f"{exc.context} that starts at line {mark.line + 1}, column {mark.column + 1}"
    return ""


def parse_yaml(text: str) -> tuple[Any, SourceMap]:
    """One YAML document -> (data, source map); LoadError on anything that is not plain JSON data."""
    try:
        return _parse(text, _Parser)
    except _TooDeepForLibyaml:  # the depth bound is far lower: find where, as every version does
        return _parse(text, _PyParser)


class _TooDeepForLibyaml(Exception):
    pass


def _parse(text: str, make_parser: Callable[[str], Any]) -> tuple[Any, SourceMap]:
    parser = None
    try:
        parser = make_parser(text)  # PyYAML's own reader checks the characters here
        parser.get_event()  # stream start
        if parser.check_event(yaml.StreamEndEvent):
            return None, SourceMap(values={"": (1, 1)})
        parser.get_event()  # document start
        builder = _Builder(parser)
        data = builder.build()
        parser.get_event()  # document end
        if not parser.check_event(yaml.StreamEndEvent):
            raise LoadError(
                *_pos(parser.get_event()),
                "a spec file holds a single YAML document",
                "split the documents into separate files",
            )
        return data, builder.source()
    except yaml.YAMLError as exc:
        if make_parser is not _PyParser and _LIBYAML_TOO_DEEP in str(exc):
            raise _TooDeepForLibyaml from None
        raise LoadError(
            *_error_position(text, exc), f"invalid YAML: {_error_message(exc)}", _error_hint(exc)
        ) from None
    except (
        UnicodeEncodeError
    ) as exc:  # a lone surrogate: only reachable through the API, never from a file
        raise LoadError(1, 1, f"invalid YAML: {exc.reason}") from None
    finally:
        if parser is not None and hasattr(parser, "dispose"):
            parser.dispose()
