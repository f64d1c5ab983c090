"""A function's docstring as the parts a spec takes, read by griffe in whichever style it is written.

griffe tells Google, NumPy and Sphinx styles apart by their section markers (`Args:`, a
`Parameters` underline, `:param x:`); a docstring with none of them is all description. The
first text section (the summary and the paragraphs after it) describes the tool, each
documented parameter its property, the `Returns` section the result and each `Raises` entry
an error kind.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

from toolgen.importers.common import SourceError

STYLES = ("google", "numpy", "sphinx")


@dataclass
class Docs:
    description: str | None = None
    parameters: dict[str, str] = field(default_factory=dict)  # name -> description
    returns: str | None = None
    raises: list[tuple[str, str]] = field(default_factory=list)  # (exception name, description)


def require_griffe() -> None:
    """Fail before anything is imported when griffe is missing (it is an extra: `toolgen[python]`)."""
    try:
        import griffe  # noqa: F401
    except ImportError:
        raise SourceError(
            "--from python needs griffe to read docstrings: pip install 'toolgen[python]'"
        ) from None


def read_docstring(function: Any) -> Docs:
    """The parts of `function`'s docstring (none when it has none)."""
    text = inspect.getdoc(function)
    if not text or not text.strip():
        return Docs()
    import griffe

    quiet: Any = {
        style: {"warnings": False} for style in STYLES
    }  # the parsers would log every undocumented type
    sections = griffe.parse_auto(griffe.Docstring(text), per_style_options=quiet)
    docs = Docs()
    for section in sections:
        kind = section.kind
        if kind is griffe.DocstringSectionKind.text and docs.description is None:
            docs.description = section.value.strip() or None
        elif kind in (
            griffe.DocstringSectionKind.parameters,
            griffe.DocstringSectionKind.other_parameters,
        ):
            for parameter in section.value:
                if parameter.description.strip():
                    docs.parameters.setdefault(
                        parameter.name.lstrip("*"), parameter.description.strip()
                    )
        elif kind is griffe.DocstringSectionKind.returns:
            described = [
                item.description.strip() for item in section.value if item.description.strip()
            ]
            docs.returns = "\n".join(described) or docs.returns
        elif kind is griffe.DocstringSectionKind.raises:
            docs.raises += [
                (str(item.annotation), item.description.strip()) for item in section.value
            ]
    return docs
