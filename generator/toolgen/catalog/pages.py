"""What the catalog shows of each tool, as plain values the templates print (and escape):
a `Page` per tool, and the index's groups by category and namespace."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolgen.breaking.categories import ERROR, INFO, WARNING
from toolgen.catalog.changes import Change
from toolgen.catalog.definitions import View
from toolgen.catalog.params import Field, Param, fields, rows, type_of
from toolgen.check.context import CheckedTool
from toolgen.ir import ToolIR
from toolgen.leaves import kinds
from toolgen.providers import deprecated_text
from toolgen.spec.model import TASK_SUPPORT

SEVERITIES = (INFO, WARNING, ERROR)
NO_CATEGORY = "(no category)"
NO_NAMESPACE = "(no namespace)"


@dataclass(frozen=True)
class Example:
    description: str
    arguments: str  # JSON text
    outcome: str  # "result" or "error", or "" when the example states neither
    value: str  # its JSON text


@dataclass(frozen=True)
class Page:
    name: str
    href: str  # relative to the site's root
    title: str
    description: str  # as the model sees it (a deprecation said first)
    category: str
    namespace: str
    defer: bool
    stability: str
    version: str
    source: str  # file:line of the entry's name, relative to the specs root
    parameters: tuple[Param, ...]
    fields: tuple[Field, ...]  # the playground form's fields (parameters of a scalar type)
    returns_type: str  # "" when the spec declares no `returns`
    returns: tuple[Param, ...]  # its properties (or items, variants): the rows of its table
    errors: tuple[tuple[str, str, bool], ...]  # kind, meaning, retryable
    policies: tuple[tuple[str, str], ...]  # (policy, what the spec declares)
    traits: tuple[str, ...]  # flags, annotations and content kinds
    examples: tuple[Example, ...]
    deprecations: tuple[str, ...]
    views: tuple[View, ...]
    changes: tuple[Change, ...]

    @property
    def changed(self) -> str:
        """The most severe of its changes' severities ("" when none)."""
        return max((c.severity for c in self.changes), key=SEVERITIES.index, default="")


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)


def _seconds(value: float) -> str:
    return f"{value:g} s"


def policies(tool: ToolIR) -> tuple[tuple[str, str], ...]:
    attempts, backoff, longest = tool.retry
    retries = "none (one attempt)"
    if attempts > 1:
        retries = f"up to {attempts} attempts in all, waiting {_seconds(backoff)} at first"
        retries += f", at most {_seconds(longest)}" if longest is not None else ""
    rate = "none"
    if tool.rate_limit is not None:
        calls, per, wait = tool.rate_limit
        rate = f"{calls} calls per {_seconds(per)}; past it, {'wait' if wait else 'fail'}"
    cache = "none"
    if tool.cache is not None:
        ttl, most = tool.cache
        cache = f"results kept {_seconds(ttl)}, at most {most} of them"
    approval = "asked before every call" if "requires_approval" in tool.flags else "not required"
    inputs, outputs = tool.guards
    return (
        ("timeout", _seconds(tool.timeout_s) if tool.timeout_s is not None else "none declared"),
        ("retries", retries),
        ("rate limit", rate),
        ("cache", cache),
        ("approval", approval),
        ("as a task", TASK_SUPPORT.get(tool.task or "", "either way (not declared)")),
        ("input guards", ", ".join(inputs) or "none"),
        ("output guards", ", ".join(outputs) or "none"),
        ("scopes a caller needs", " ".join(tool.scopes) or "none"),
    )


def traits(tool: ToolIR) -> tuple[str, ...]:
    found = [f for f in tool.flags if f != "requires_approval"]
    found += [name.replace("_", " ") for name, on in tool.annotations if on]
    found += [f"returns {kind} content" for kind in tool.content]
    found += ["input repaired: " + ", ".join(tool.repair)] if tool.repair else []
    return tuple(found)


def examples(tool: ToolIR) -> tuple[Example, ...]:
    out = []
    for example in tool.examples:
        outcome = next((k for k in ("result", "error") if k in example), "")
        out.append(
            Example(
                str(example.get("description") or ""),
                _json(example.get("arguments", {})),
                outcome,
                _json(example[outcome]) if outcome else "",
            )
        )
    return tuple(out)


def deprecations(tool: ToolIR) -> tuple[str, ...]:
    out = []
    if tool.stability == "deprecated":
        out.append(deprecated_text(tool.deprecation, kinds.MCP))
    for wire, _, sunset in tool.deprecated_parameters:
        out.append(f"Parameter {wire} is deprecated" + (f" (sunset {sunset})." if sunset else "."))
    for old, new, sunset in tool.renames:
        until = f" until {sunset}" if sunset else ""
        out.append(f"Parameter {old} was renamed {new}; the old name is still taken{until}.")
    return tuple(out)


def page(
    tool: ToolIR,
    checked: CheckedTool,
    views: Sequence[View],
    changes: Sequence[Change] = (),
) -> Page:
    line, _ = checked.doc.source.position(checked.at("/name"))
    shown = tool.description
    if tool.stability == "deprecated":
        shown = f"{deprecated_text(tool.deprecation, kinds.MCP)} {shown}".strip()
    returns_type = type_of(tool.returns, tool.returns) if tool.returns is not None else ""
    return Page(
        name=tool.name,
        href=f"tools/{tool.module}.html",
        title=tool.title or "",
        description=shown,
        category=tool.category or NO_CATEGORY,
        namespace=tool.namespace or NO_NAMESPACE,
        defer=tool.defer,
        stability=tool.stability,
        version=tool.version or "",
        source=f"{checked.doc.display}:{line}",
        parameters=rows(tool.parameters),
        fields=fields(tool.parameters),
        returns_type=returns_type,
        returns=rows(tool.returns) if tool.returns is not None else (),
        errors=tuple((e.kind, e.description, e.retryable) for e in tool.errors),
        policies=policies(tool),
        traits=traits(tool),
        examples=examples(tool),
        deprecations=deprecations(tool),
        views=tuple(views),
        changes=tuple(changes),
    )


def groups(pages: Sequence[Page]) -> list[tuple[str, list[tuple[str, list[Page]]]]]:
    """Category, then namespace, then tool, each sorted (the placeholders of none last)."""
    tree: dict[str, dict[str, list[Page]]] = {}
    for p in pages:
        tree.setdefault(p.category, {}).setdefault(p.namespace, []).append(p)

    def order(key: str) -> tuple[bool, str]:
        return key.startswith("("), key

    return [
        (c, [(n, sorted(tree[c][n], key=lambda p: p.name)) for n in sorted(tree[c], key=order)])
        for c in sorted(tree, key=order)
    ]
