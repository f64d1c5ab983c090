"""`$ref` resolution and bundling with `referencing`.

Every schema root in a tool (parameters, returns, each injected entry) is its own
resource, so `#/...` means what it means once that schema is sent to a provider. When
a local `#/$defs/X` is not in the schema itself, the file's shared `$defs` are tried.
Other files are reached by relative path and must lie under the specs root. Nothing is
ever retrieved from anywhere else.

Bundling rewrites every reference to `#/$defs/<Name>` inside one self-contained
schema, which is what the renderer and the provider exporters consume.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from urllib.parse import quote, unquote, urldefrag, urljoin, urlsplit

import referencing
import referencing.exceptions
import referencing.jsonschema

from toolgen.load.document import Document
from toolgen.load.specs import SpecSet, ToolSource
from toolgen.runtime.validation.suggest import nearest
from toolgen.schema.keywords import DATA_KEYWORDS, SCHEMA_MAPS
from toolgen.schema.pointer import child, unescape

ROOT_URI = "file:///specs/"
# Schema levels a bundled schema may nest, counting each `$ref` followed as one: a schema
# inlined by a provider exporter is that deep, and every later stage walks it recursively.
MAX_SCHEMA_DEPTH = 64
# Keywords that apply their subschemas to the value itself: a `$ref` cycle through only
# these loops in place (`A: {anyOf: [{$ref: A}]}`) and describes nothing a validator can finish.
IN_PLACE = frozenset(
    ("$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas")
)
UNSUPPORTED_KEYWORDS = frozenset(
    ("$id", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor")
)


class RefError(Exception):
    """A `$ref` that cannot be followed; `pointer` locates it in its document."""

    def __init__(
        self, doc: Document, pointer: str, rule: str, message: str, hint: str = ""
    ) -> None:
        super().__init__(message)
        self.doc, self.pointer, self.rule, self.message, self.hint = (
            doc,
            pointer,
            rule,
            message,
            hint,
        )


def document_uri(doc: Document) -> str:
    return ROOT_URI + quote(doc.display)


def schema_uri(doc: Document, pointer: str) -> str:
    # A query string keeps relative file references resolving against the document's folder.
    return f"{document_uri(doc)}?schema={quote(pointer, safe='')}"


class RefIndex:
    """All documents and schema roots of a spec set, as one `referencing` registry: made when
    a `$ref` is first followed (most spec sets' tools bundle without one)."""

    def __init__(self, specs: SpecSet) -> None:
        self.specs = specs

    @classmethod
    def build(cls, specs: SpecSet) -> RefIndex:
        return cls(specs)

    @cached_property
    def documents(self) -> dict[str, Document]:
        """Resource URI -> the document it is in (a document, or a schema root in one)."""
        return {uri: doc for uri, doc, _ in self._resources}

    @cached_property
    def registry(self) -> referencing.Registry[Any]:
        spec = referencing.jsonschema.DRAFT202012
        resources = [(uri, spec.create_resource(data)) for uri, _, data in self._resources]

        def refuse(uri: str) -> referencing.Resource[Any]:
            raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]  # attrs class

        registry: referencing.Registry[Any] = referencing.Registry(retrieve=refuse)  # type: ignore[call-arg]
        return registry.with_resources(resources)

    @cached_property
    def _resources(self) -> list[tuple[str, Document, Any]]:
        found = [(document_uri(doc), doc, doc.data) for doc in self.specs.documents]
        for tool in self.specs.tools:
            for pointer, schema in schema_roots(tool):
                found.append((schema_uri(tool.doc, pointer), tool.doc, schema))
        return found


def schema_roots(tool: ToolSource) -> list[tuple[str, Any]]:
    """(pointer, schema) of every schema root in a tool entry, in document order."""
    roots: list[tuple[str, Any]] = []
    for key in ("parameters", "returns"):
        if key in tool.data:
            roots.append((tool.at(f"/{key}"), tool.data[key]))
    injected = tool.data.get("injected")
    if isinstance(injected, dict):
        for name, schema in injected.items():
            roots.append((child(tool.at("/injected"), name), schema))
    return roots


@dataclass
class _Bundle:
    index: RefIndex
    doc: Document
    root: str  # the pointer of the schema root bundled: its URI is the base of its references
    defs: dict[str, Any] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # target URI -> def name
    heights: dict[str, int] = field(default_factory=dict)  # def name -> levels below its root
    deepest: int = 0

    def reach(self, level: int, pointer: str) -> None:
        self.deepest = max(self.deepest, level)
        if level > MAX_SCHEMA_DEPTH:
            raise RefError(
                self.doc,
                pointer,
                "schema-too-deep",
                f"the schema nests deeper than {MAX_SCHEMA_DEPTH} levels (each `$ref` followed counts as one)",
                "flatten the nesting or shorten the chain of references",
            )

    def def_name(self, target: str) -> str:
        """A name for the definition at `target`, unique in this bundle and safe as it is in a
        reference: `#/$defs/<name>` needs no JSON-pointer escaping (`~0`, `~1`) and no
        percent-encoding, so every consumer resolves it, however it reads the fragment."""
        fragment = unquote(urldefrag(target)[1])
        base = (
            unescape(fragment.rstrip("/").rsplit("/", 1)[-1])
            if fragment
            else unquote(urlsplit(target).path.rsplit("/", 1)[-1])
        )
        base = safe_name(re.sub(r"\.(ya?ml|json)$", "", base)) or "Schema"
        name, n = base, 2
        while name in self.defs or name in self.names.values():
            name, n = f"{base}{n}", n + 1
        return name

    def follow(
        self, ref: str, base: str | None, pointer: str, level: int = 0, chain: tuple[str, ...] = ()
    ) -> str:
        """Resolve one `$ref` found at `pointer` (`base` None: in the root's own resource);
        returns the local `#/$defs/<Name>`."""
        if base is None:  # its URI made only for a schema that refers to anything
            base = schema_uri(self.doc, self.root)
        scheme = urlsplit(ref).scheme
        if scheme and scheme != "file" or ref.startswith("//"):
            raise RefError(
                self.doc,
                pointer,
                "ref-remote",
                f"remote reference {ref!r} is not allowed",
                "copy the schema under the specs root and reference it by relative path",
            )
        target = urljoin(base, ref)
        if not target.startswith(ROOT_URI):
            raise RefError(
                self.doc,
                pointer,
                "ref-outside-root",
                f"reference {ref!r} leaves the specs root",
                "move the referenced file under the specs root",
            )
        resolved = self._lookup(target, base)
        if resolved is None:
            raise self._unresolved(ref, target, pointer)
        target, contents = resolved
        if target in chain:
            raise RefError(
                self.doc,
                pointer,
                "ref-cycle",
                f"reference {ref!r} loops back to itself in place",
                "a recursive schema recurses through `properties` or `items` (a value inside the value)",
            )
        if target not in self.names:
            name = self.def_name(target)
            self.names[target] = name
            self.defs[name] = None  # reserve: recursion meets the name, not the body
            outer, self.deepest = self.deepest, level + 1
            self.defs[name] = self.walk(
                contents, urldefrag(target)[0], pointer, level + 1, (*chain, target)
            )
            self.heights[name] = self.deepest - level
            self.deepest = max(outer, self.deepest)
        else:  # met again (deeper, perhaps): as deep as its body goes; a recursive one, no deeper
            self.reach(level + self.heights.get(self.names[target], 1), pointer)
        return f"#/$defs/{self.names[target]}"

    def _unresolved(self, ref: str, target: str, pointer: str) -> RefError:
        document = urldefrag(target)[0].split("?", 1)[0]
        if document not in self.index.documents:
            path = unquote(document[len(ROOT_URI) :])
            return RefError(
                self.doc,
                pointer,
                "ref-unresolved",
                f"reference {ref!r}: spec file {path!r} not found",
                "paths are relative to the referencing file, within the specs root",
            )
        uri, fragment = urldefrag(target)
        fragment = unquote(fragment)
        names: list[str] = []
        for resource in dict.fromkeys((uri, document)):  # the schema's own $defs, then the file's
            contents = (
                self.index.registry.contents(resource) if resource in self.index.documents else None
            )
            defs = contents.get("$defs") if isinstance(contents, dict) else None
            if isinstance(defs, dict) and fragment.startswith("/$defs/"):
                names += [name for name in defs if name not in names]
        guess = nearest(fragment.rsplit("/", 1)[-1], names)
        hint = (
            f"did you mean '#/$defs/{guess}'?"
            if guess
            else (
                f"defined: {', '.join(names)}"
                if names
                else "define it under $defs, or fix the path"
            )
        )
        return RefError(
            self.doc, pointer, "ref-unresolved", f"reference {ref!r} does not resolve", hint
        )

    def _lookup(self, target: str, base: str) -> tuple[str, Any] | None:
        candidates = [target]
        uri, fragment = urldefrag(target)
        if "?schema=" in uri and fragment.startswith("/$defs/"):
            candidates.append(f"{uri.split('?', 1)[0]}#{fragment}")  # the file's shared $defs
        resolver = self.index.registry.resolver(base)
        for candidate in candidates:
            try:
                return candidate, resolver.lookup(candidate).contents
            except (referencing.exceptions.Unresolvable, KeyError, IndexError, TypeError):
                continue
        return None

    def walk(
        self,
        schema: Any,
        base: str | None,
        at: At,
        level: int = 0,
        chain: tuple[str, ...] = (),
    ) -> Any:
        """`chain`: the definitions this schema is reached from in place (see IN_PLACE).
        Scalars are taken as they are without a call of their own (most values are)."""
        if isinstance(schema, list):
            return [
                self.walk(item, base, (at, i), level, chain)
                if isinstance(item, (dict, list))
                else item
                for i, item in enumerate(schema)
            ]
        if not isinstance(schema, dict):
            return schema
        if level > self.deepest:
            self.deepest = level
        if level > MAX_SCHEMA_DEPTH:
            self.reach(level, _pointer(at))
        out: dict[str, Any] = {}
        for key, value in schema.items():
            if key in UNSUPPORTED_KEYWORDS:
                raise RefError(
                    self.doc,
                    _pointer((at, key)),
                    "unsupported-keyword",
                    f"{key} is not supported in tool schemas",
                    "use $defs and $ref with relative paths",
                )
            if key == "$ref" and isinstance(value, str):
                out[key] = self.follow(value, base, _pointer((at, key)), level, chain)
            elif key == "$defs":
                continue  # definitions are re-collected as they are referenced
            elif not isinstance(value, (dict, list)):
                out[key] = value  # a scalar: no schema inside, and nothing to copy
            elif key in SCHEMA_MAPS and isinstance(value, dict):
                here = (at, key)
                inner = chain if key in IN_PLACE else ()
                out[key] = {
                    k: self.walk(v, base, (here, k), level + 1, inner) for k, v in value.items()
                }
            elif key in DATA_KEYWORDS:
                out[key] = copy.deepcopy(value)  # data, not schemas
            else:
                inner = chain if key in IN_PLACE else ()
                out[key] = self.walk(value, base, (at, key), level + 1, inner)
        return out


# Where the walk is: a JSON pointer, or the place of its parent and one more token. Made a
# pointer (`_pointer`) only where something is reported or followed: most nodes never are.
At = str | tuple["At", str | int]


def _pointer(at: At) -> str:
    tokens: list[str | int] = []
    while isinstance(at, tuple):
        at, token = at
        tokens.append(token)
    for token in reversed(tokens):
        at = child(at, token)
    return at


def safe_name(text: str) -> str:
    """`text` with only ASCII letters, digits, `_`, `.` and `-` (accents dropped, the rest `_`)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", ascii_text)


def bundle(index: RefIndex, tool: ToolSource, pointer: str, schema: Any) -> Any:
    """A self-contained copy of the schema at `pointer`: every `$ref` points into its own `$defs`."""
    return bundle_located(index, tool, pointer, schema)[0]


def bundle_located(
    index: RefIndex, tool: ToolSource, pointer: str, schema: Any
) -> tuple[Any, dict[str, tuple[Document, str]]]:
    """`bundle`, and where each definition of the bundle's `$defs` was written: name ->
    (document, JSON pointer), so a finding inside a definition can name its source line."""
    state = _Bundle(index, tool.doc, pointer)
    body = state.walk(schema, None, pointer)
    if state.defs and isinstance(body, dict):
        body["$defs"] = dict(sorted(state.defs.items()))
    places: dict[str, tuple[Document, str]] = {}
    for target, name in state.names.items():
        uri, fragment = urldefrag(target)
        doc = index.documents.get(uri)
        if doc is not None:
            base = unquote(uri.split("?schema=", 1)[1]) if "?schema=" in uri else ""
            places[name] = (doc, base + unquote(fragment))
    return body, places
