"""What exporters take (a tool, as the IR has it) and give (definitions, and notes for lint)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class ToolLike(Protocol):
    """The part of `ir.ToolIR` exporters read (lint passes a lighter view of a checked spec)."""

    @property
    def name(self) -> str: ...
    @property
    def provider_name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def title(self) -> str | None: ...
    @property
    def parameters(
        self,
    ) -> dict[str, Any]: ...  # bundled, model-visible (injected values are not in it)
    @property
    def returns(self) -> dict[str, Any] | None: ...
    @property
    def annotations(self) -> tuple[tuple[str, bool], ...]: ...


Tools = Sequence[ToolLike]

# kinds, and the lint rule each becomes
FALLBACK = "fallback"  # a definition was emitted in a weaker form (strict off, recursion unrolled)
LOSSY = "lossy"  # the target cannot say something the spec says; the runtime still checks it
REFUSED = "refused"  # no definition at all for this target
TRIMMED = "trimmed"  # a description was cut to the target's limit
ROOT = "root"  # combinators at the root of `parameters` merged into one object (providers/root.py)
RULES = {
    FALLBACK: "provider-fallback",
    LOSSY: "provider-lossy",
    REFUSED: "provider-refused",
    TRIMMED: "description-too-long",
    ROOT: "provider-root-merged",
}


@dataclass(frozen=True, order=True)
class Note:
    tool: str  # canonical name
    target: str  # provider and variant, as people say it: "openai strict", "gemini parameters (OpenAPI)"
    kind: str
    message: str  # the reason, and the fallback taken
    path: str = ""  # JSON pointer inside `parameters` ("" for the tool itself)
    # About the tools of one request together (a per-request budget), not the tool alone:
    # reported once for all the tools it concerns.
    shared: bool = False

    @property
    def rule(self) -> str:
        return RULES[self.kind]

    def text(self) -> str:
        return f"{self.target}: {self.message}" + (
            "; the tool is sent non-strict" if self.shared else ""
        )


class Inexpressible(Exception):
    """A schema a target cannot express; the exporter catches it and takes its fallback."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(reason)
        self.path, self.reason = path, reason


@dataclass
class Export:
    """One provider's definitions for a list of tools (refused tools have none), and why they differ."""

    definitions: list[dict[str, Any]] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)


def trim(text: str, limit: int | None) -> tuple[str, bool]:
    """`text` cut to `limit` characters (with an ellipsis), and whether it was."""
    if limit is None or len(text) <= limit:
        return text, False
    return text[: limit - 1].rstrip() + "…", True
