# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What a contract test works with: the contract of one tool, the violation it reports (with
the `toolgen call` lines that reproduce it), and the registry a check is given.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis.strategies import SearchStrategy

from ._link import REDACTED, Registry, ToolInfo

RegistrySource = Registry | Callable[[], Registry]  # a callable: a fresh registry for every example
# An argument's strategy, or a function of the example's registry (made and seeded) giving one.
Override = SearchStrategy[Any] | Callable[[Registry], SearchStrategy[Any]]
Seed = Callable[[Registry], object]  # prepares each registry the checks make (its result is unused)


@dataclass(frozen=True)
class ToolContract:
    """What a tool's spec promises, in testable form (the generated `testing` package builds one per tool)."""

    info: ToolInfo
    arguments: Callable[..., SearchStrategy[dict[str, Any]]]  # keyword overrides by wire name
    returns: Any = None  # the bundled JSON Schema of the result; None: any JSON value
    examples: tuple[
        Mapping[str, Any], ...
    ] = ()  # {"arguments", "result"?, "error"?, "description"?}


class ContractViolation(AssertionError):
    """An implementation broke its tool's contract (or the kit is wrong: `problem` says which).

    `arguments` is the (shrunk) call that went wrong, `calls` every call to make, in order,
    to reproduce it; `others` the calls between the two identical ones of an idempotence check.
    """

    def __init__(
        self,
        tool: str,
        check: str,
        problem: str,
        summary: str,
        details: Sequence[str],
        calls: Sequence[Any],
        *,
        injected: bool = False,
        seeded: bool = False,
        shown: Sequence[Any] | None = None,
    ) -> None:
        self.tool, self.check, self.problem = tool, check, problem
        self.summary, self.details = summary, tuple(details)
        self.calls = tuple(calls)
        self.arguments: Any = self.calls[-1] if self.calls else None
        self.others = self.calls[1:-1] if check == "idempotent" else ()
        lines = [f"{tool}: {summary}", *(f"  {line}" for line in details)]
        if self.calls:
            lines.append(
                "reproduce with:" if len(self.calls) == 1 else "reproduce with, in this order:"
            )
            shown_calls = self.calls if shown is None else shown
            lines += [f"  {cli_line(tool, call)}" for call in shown_calls]
            if shown is not None and list(shown) != list(self.calls):
                lines.append(f"  (x-secret values are shown as {REDACTED!r}: `.calls` holds them)")
            if seeded:
                lines.append(
                    "  (on a registry prepared by the seed: prepare it the same way first)"
                )
            if injected:
                lines.append("  (the tool also takes injected values, which the host supplies)")
        super().__init__("\n".join(lines))


def cli_line(tool: str, arguments: Any) -> str:
    """The shell command that makes this call: `toolgen call edit_file '{"path": "a"}'`."""
    return f"toolgen call {shlex.quote(tool)} {shlex.quote(json.dumps(arguments))}"


def registry_of(source: RegistrySource) -> Registry:
    return source() if callable(source) else source


def holds(registry: Registry, info: ToolInfo) -> None:
    """The registry is a generated package's and holds the contract's tool (TypeError, LookupError)."""
    if not callable(getattr(registry, "_prepare", None)):
        raise TypeError(f"not a Registry of a generated package ({type(registry).__module__})")
    if info.name not in registry:
        raise LookupError(f"the registry does not hold tool {info.name!r}")
    if registry.info(info.name) != info:
        raise TypeError(
            f"the registry's {info.name!r} implements another interface than the contract's "
            "(another generated package, or another version of it?)"
        )


def from_state(override: Override) -> bool:
    """An override that is a function of the example's registry (not a strategy itself)."""
    return not isinstance(override, SearchStrategy) and callable(override)
