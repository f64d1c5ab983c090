"""Names: any wire name becomes a safe, stable Python or provider identifier.

Wire names (what a model sends) never change; Python names are derived once, here,
and the generated models map between them with aliases.
"""

from __future__ import annotations

import builtins
import hashlib
import keyword
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from toolgen.leaves import kinds

# Attributes of pydantic's BaseModel (and RootModel): a field with one of these names
# would shadow pydantic's API. Kept literal so output does not depend on the installed
# pydantic; tests check it covers the installed one.
PYDANTIC_RESERVED = frozenset(
    """construct copy dict from_orm json model_computed_fields model_config model_construct model_copy
    model_dump model_dump_json model_extra model_fields model_fields_set model_json_schema
    model_parametrized_name model_post_init model_rebuild model_validate model_validate_json
    model_validate_strings parse_file parse_obj parse_raw schema schema_json update_forward_refs validate
    Config""".split()
)
# Names the generated modules use in annotations and class bodies: a field with one of
# these names would shadow them for the fields after it.
MODULE_NAMES = frozenset(
    """Annotated Any BaseModel ClassVar ConfigDict Field Literal RootModel Awaitable ToolInfo None True
    False bool dict float int list str abc""".split()
)
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_)|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_]+", re.UNICODE)
_GAPS = re.compile("\0+")
_ASCII_GAPS = re.compile("[^A-Za-z0-9_]+")  # what no identifier may hold, among ASCII characters


def _identifier_chars(text: str, gap: str) -> str:
    """NFKC (what Python does to identifiers), then `gap` for each run of characters no identifier may hold.

    `\\w` is not enough: numerics such as `৴` (U+09F4) match it but cannot be in a name.
    """
    if text.isascii():  # most names: NFKC leaves ASCII as it is, and the test is a regex
        return _ASCII_GAPS.sub(gap, text)
    normalized = unicodedata.normalize("NFKC", text)
    kept = "".join(ch if f"a{ch}".isidentifier() else "\0" for ch in normalized)
    return _GAPS.sub(gap, kept)


def _stable(name: str, fallback: str) -> str:
    """`name` if Python reads it as exactly this identifier (NFKC-stable), else a hashed fallback."""
    if name.isidentifier() and unicodedata.is_normalized("NFKC", name):
        return name
    return f"{fallback}_{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def _identifier(text: str, prefix: str) -> str:
    """Replace what cannot be in an identifier; never starts with a digit."""
    name = _identifier_chars(text, "_").strip("_") or prefix
    if not name.isidentifier():  # starts with a digit, or a character only valid inside
        name = f"{prefix}_{name}"
    return _stable(name, prefix)


@lru_cache(maxsize=4096)  # the same property names recur across a spec set's tools
def field_name(wire: str) -> str:
    """The Python attribute for a property: `from` -> `from_`, `Content-Type` -> `Content_Type`."""
    name = _identifier(wire, "field")
    if (
        keyword.iskeyword(name)
        or name in PYDANTIC_RESERVED
        or name in MODULE_NAMES
        or name.startswith("model_")
    ):
        name += "_"
    return name


@lru_cache(maxsize=16384)  # derived by the name-collision rule, then again by lower
def module_name(tool: str) -> str:
    """The module of a tool: `math.factorial` -> `math_factorial`; lower case, so case-insensitive file systems agree."""
    name = _identifier(tool, "tool").lower()
    return name + "_" if keyword.iskeyword(name) else name


def _camel_words(*parts: str) -> list[str]:
    words: list[str] = []
    for part in parts:
        words.extend(_capitalized(part))
    return words


@lru_cache(maxsize=4096)  # a class's name, then each of its fields' class names, start alike
def _capitalized(part: str) -> tuple[str, ...]:
    return tuple(w[:1].upper() + w[1:] for w in _WORDS.findall(_identifier_chars(part, " ")))


def _class_name(words: list[str]) -> str:
    name = unicodedata.normalize("NFKC", "".join(words)) or "Model"  # upper() may denormalize
    if not name.isidentifier() or name[0].isdigit():
        name = "T" + name
    return _stable(name, "Model")


_DIGIT_LOWER = re.compile(r"[0-9][a-z]")


def _camel(part: str) -> bool:
    """A part that is CamelCase already (a class name, or one with a suffix): ASCII letters and
    digits, a lower-case letter only after a letter. Its words, split and capitalized, join
    back into it, so `class_name` takes it whole."""
    return (
        part.isascii()
        and part.isalnum()
        and not part[0].islower()
        and _DIGIT_LOWER.search(part) is None
    )


def class_name(*parts: str) -> str:
    """CamelCase from any text: (`get_weather`, `Arguments`) -> `GetWeatherArguments`."""
    return _class_name([part if _camel(part) else "".join(_capitalized(part)) for part in parts])


INTERFACE_WORD = "Tool"


@dataclass(frozen=True)
class ToolClasses:
    """The Python class names of one tool's module (docs/decisions/0005-tool-class-names.md).

    Every class is `<prefix><Role>`, and nested model classes extend the Arguments,
    Result or Injected name, so the names of one tool never collide with each other;
    the check rule name-collision keeps prefixes unique across tools.
    """

    prefix: str  # `search_tool` -> `SearchTool`
    arguments: str  # SearchToolArguments
    result: str  # SearchToolResult
    injected: str  # SearchToolInjected
    interface: str  # SearchTool (the abstract class implementations subclass)
    implementation: str  # SearchToolImpl: the class name `toolgen scaffold` gives a stub


@lru_cache(maxsize=16384)  # derived by the name-collision rule, then again by lower
def class_prefix(tool: str) -> str:
    """The CamelCase stem of a tool's classes: `get_weather` -> `GetWeather`, `search_tool` -> `SearchTool`."""
    return _class_name(_camel_words(tool))


def _ends_with_interface_word(prefix: str) -> bool:
    if prefix.isascii() and INTERFACE_WORD.lower() not in prefix.lower():
        return False  # most names: an ASCII word that casefolds to `tool` is `tool` in any case
    words = _camel_words(prefix)
    return (
        bool(words)
        and unicodedata.normalize("NFKC", words[-1]).casefold() == INTERFACE_WORD.casefold()
    )


def tool_classes(tool: str) -> ToolClasses:
    """Every class name of a tool's module, decided here only."""
    prefix = class_prefix(tool)
    # `search_tool`: the interface is `SearchTool`, not `SearchToolTool`.
    interface = prefix if _ends_with_interface_word(prefix) else prefix + INTERFACE_WORD
    roles = (f"{prefix}Arguments", f"{prefix}Result", f"{prefix}Injected", interface)
    # A stub's class must not be a keyword (`None`), hide a builtin (`Exception`) or an imported name.
    clash = keyword.iskeyword(prefix) or hasattr(builtins, prefix) or prefix in roles
    return ToolClasses(prefix, *roles, implementation=f"{prefix}Impl" if clash else prefix)


def unique(names: Iterable[str], taken: Iterable[str] = ()) -> list[str]:
    """Make names distinct in order: the second `x` becomes `x_2`. `taken`: names already in
    use (distinct), which none of `names` may become."""
    seen: set[str] = set(taken)
    out: list[str] = []
    for name in names:
        candidate, n = name, 2
        while candidate in seen:
            candidate, n = f"{name}_{n}", n + 1
        seen.add(candidate)
        out.append(candidate)
    return out


PROVIDER_NAME = re.compile(kinds.TOOL_NAME)


def provider_name(tool: str) -> str:
    """A name every provider accepts (`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`); stable, with a hash when shortened."""
    if PROVIDER_NAME.fullmatch(tool):
        return tool
    name = re.sub(r"[^A-Za-z0-9_-]", "_", tool)
    if not re.match(r"[A-Za-z_]", name):
        name = "t_" + name
    if len(name) > 64:
        digest = hashlib.sha256(tool.encode()).hexdigest()[:8]
        name = f"{name[:55]}_{digest}"
    return name
