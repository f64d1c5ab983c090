"""The rule table of `toolgen breaking`: every rule's ID, category, default severity and summary.

Categories, strictest first: FILE includes SOURCE, which includes WIRE; PROVIDER and
BEHAVIOR stand beside them. A rule belongs to one category; `[tool.toolgen.breaking] use`
names the categories a project checks (default: SOURCE, PROVIDER and BEHAVIOR, since a
generated package ships typed classes as well as a wire format). docs/breaking.md's rule
table is generated from this list (`python -m toolgen.breaking.rules --write docs/breaking.md`;
a test keeps it current).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from toolgen import doctable

FILE, SOURCE, WIRE, PROVIDER, BEHAVIOR = "FILE", "SOURCE", "WIRE", "PROVIDER", "BEHAVIOR"
CATEGORIES = (FILE, SOURCE, WIRE, PROVIDER, BEHAVIOR)
# What naming a category in `use` turns on.
INCLUDES: dict[str, tuple[str, ...]] = {
    FILE: (FILE, SOURCE, WIRE),
    SOURCE: (SOURCE, WIRE),
    WIRE: (WIRE,),
    PROVIDER: (PROVIDER,),
    BEHAVIOR: (BEHAVIOR,),
}
DEFAULT_USE = (SOURCE, PROVIDER, BEHAVIOR)
ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITIES = (ERROR, WARNING, INFO)


@dataclass(frozen=True)
class Rule:
    id: str
    category: str
    severity: str  # the default; `[tool.toolgen.breaking] severity` overrides it
    summary: str
    hint: str = ""  # the usual way out, when a finding has no better one
    adds: bool = False  # an addition: the release needs at least a minor version

    @property
    def slug(self) -> str:
        """The rule's case folder under tests/golden/breaking/."""
        return self.id.lower()


RULES: tuple[Rule, ...] = (
    # -- tools ---------------------------------------------------------------------------------
    Rule(
        "TOOL_NO_DELETE",
        WIRE,
        ERROR,
        "A tool is not removed: calls of it fail.",
        "deprecate it first (`deprecated: {reason, replacement}` and a `sunset`), remove it after the sunset",
    ),
    Rule(
        "TOOL_NO_DELETE_BEFORE_SUNSET",
        WIRE,
        ERROR,
        "A deprecated tool is not removed before its `sunset` (or without one).",
        "keep the tool until the day after its sunset",
    ),
    Rule(
        "TOOL_DELETED_AFTER_SUNSET",
        WIRE,
        INFO,
        "A deprecated tool removed after its `sunset`: allowed.",
        "nothing to do: the callers were told; the release still needs the bump the summary names",
    ),
    Rule(
        "TOOL_SAME_NAME",
        WIRE,
        ERROR,
        "A tool keeps its name (the identifier a model or client calls): a tool "
        "whose file kept its place, or whose provider-safe name stayed, under a new name is a rename.",
        "keep the old tool, deprecated with a `replacement` naming the new one, until a sunset",
    ),
    Rule(
        "TOOL_ADDED",
        WIRE,
        INFO,
        "A new tool: the release needs a minor version.",
        "release it in a new minor version at least",
        adds=True,
    ),
    Rule(
        "STABILITY_NO_DECREASE",
        WIRE,
        ERROR,
        "`stability` only rises (experimental < stable): a stable tool does not become experimental.",
        "keep the stability; publish the experimental variant as a new tool",
    ),
    Rule(
        "TOOL_SAME_FILE",
        FILE,
        ERROR,
        "A tool stays in its spec file (FILE category: projects that map files to modules).",
        "move it back, or leave FILE out of `use` if nothing maps spec files to modules",
    ),
    # -- parameters: what callers send ---------------------------------------------------------
    Rule(
        "PARAM_NO_DELETE",
        WIRE,
        ERROR,
        "A parameter of a closed object is not removed: calls that send it are refused.",
        "keep it, marked `deprecated: true` with an `x-sunset` date; or rename it with `x-renamed-from`",
    ),
    Rule(
        "PARAM_NO_DELETE_OPEN",
        SOURCE,
        ERROR,
        "A parameter of an open object is not removed: calls still validate, but the generated class loses the field.",
        "keep it, marked `deprecated: true` with an `x-sunset` date",
    ),
    Rule(
        "PARAM_NO_DELETE_BEFORE_SUNSET",
        WIRE,
        ERROR,
        "A deprecated parameter (or the old name of a renamed one) is not removed before its sunset (or without one).",
        "keep it until the day after its sunset (`x-sunset`, or the `sunset` of `x-renamed-from`)",
    ),
    Rule(
        "PARAM_DELETED_AFTER_SUNSET",
        WIRE,
        INFO,
        "A deprecated parameter (or an old name) removed after its sunset: allowed.",
        "nothing to do: the callers were told",
    ),
    Rule(
        "PARAM_RENAMED",
        SOURCE,
        WARNING,
        "A parameter renamed with `x-renamed-from`: the runtime takes the old "
        "name until the sunset, but implementations read the argument under its new name.",
        "rename the attribute in the implementations; remove `x-renamed-from` after its sunset, not before",
    ),
    Rule(
        "PARAM_SAME_JSON_NAME",
        WIRE,
        ERROR,
        "A parameter keeps its key: a property removed and one added with the same schema is a rename.",
        "declare `x-renamed-from: {name: OLD, sunset: YYYY-MM-DD}` on the new property",
    ),
    Rule(
        "PARAM_NO_NEW_REQUIRED",
        WIRE,
        ERROR,
        "A new parameter is optional: calls written before do not send it (toolgen requires a required key even "
        "when it has a default).",
        "leave it out of `required` and give it a `default`",
    ),
    Rule(
        "PARAM_ADDED",
        SOURCE,
        INFO,
        "A new optional parameter: implementations receive an argument they do not read yet.",
        "read the new argument in the implementation",
        adds=True,
    ),
    Rule(
        "PARAM_NO_OPTIONAL_TO_REQUIRED",
        WIRE,
        ERROR,
        "An optional parameter stays optional: calls that leave it out are refused.",
        "keep it optional, with a `default`",
    ),
    Rule(
        "PARAM_REQUIRED_TO_OPTIONAL",
        SOURCE,
        WARNING,
        "A required parameter made optional: implementations may now receive no value (its default, or None).",
        "check that the implementation handles the missing value",
    ),
    Rule(
        "PARAM_SAME_TYPE",
        WIRE,
        ERROR,
        "A parameter accepts every type it accepted (`type`, `anyOf`/`oneOf` branches).",
        "accept the old type too (a list of types, or another `anyOf` branch)",
    ),
    Rule(
        "PARAM_NULLABLE_NO_REMOVE",
        WIRE,
        ERROR,
        "A parameter that accepted null still does.",
        "keep `null` in its type",
    ),
    Rule(
        "PARAM_TYPE_WIDENED",
        SOURCE,
        WARNING,
        "A parameter accepts a new type (`integer` -> `number`, `+null`, a new branch): implementations may not "
        "handle it.",
        "check that the implementation handles the new type",
    ),
    Rule(
        "PARAM_ENUM_VALUE_NO_DELETE",
        WIRE,
        ERROR,
        "A parameter accepts every `enum` value it accepted (and an `enum` or `const` is not introduced or changed).",
        "keep the value; deprecate it in the description",
    ),
    Rule(
        "PARAM_ENUM_VALUE_ADDED",
        SOURCE,
        WARNING,
        "A parameter accepts a new `enum` value: an implementation that matches every value may not handle it.",
        "handle the new value in the implementation",
    ),
    Rule(
        "PARAM_CONSTRAINT_NO_TIGHTEN",
        WIRE,
        ERROR,
        "A parameter's constraints do not tighten (bounds, lengths, counts, `multipleOf`, `uniqueItems`, `pattern`, "
        "`format`, and keywords toolgen cannot compare, such as `not` and `if`).",
        "keep the old constraint, and check the stricter one in the implementation",
    ),
    Rule(
        "PARAM_NO_CLOSE_OBJECT",
        WIRE,
        ERROR,
        "An object parameter that took undeclared keys still does (`additionalProperties`; toolgen closes an "
        "object that declares `properties`).",
        "write `additionalProperties: true`",
    ),
    Rule(
        "PARAM_SAME_DEFAULT",
        WIRE,
        ERROR,
        "An optional parameter keeps its `default`: calls that leave it out would mean something else.",
        "keep the default; add a new parameter for the new behaviour",
    ),
    Rule(
        "PARAM_DEPRECATED",
        BEHAVIOR,
        INFO,
        "A parameter newly marked `deprecated: true`.",
        "name an `x-sunset` date, and say in the description what to send instead",
    ),
    # -- results: what consumers read ----------------------------------------------------------
    Rule(
        "RESULT_FIELD_NO_DELETE",
        WIRE,
        ERROR,
        "A required result field is not removed: consumers read it.",
        "keep sending it",
    ),
    Rule(
        "RESULT_OPTIONAL_FIELD_REMOVED",
        SOURCE,
        ERROR,
        "An optional result field is not removed: the generated result class loses the attribute.",
        "keep it in `returns`, even if the tool stops sending it",
    ),
    Rule(
        "RESULT_NO_REQUIRED_TO_OPTIONAL",
        WIRE,
        ERROR,
        "A required result field stays required: consumers expect it.",
        "keep it required",
    ),
    Rule(
        "RESULT_TYPE_NO_WIDEN",
        WIRE,
        ERROR,
        "A result does not take a new type (`integer` -> `number`, `+null`, a new `anyOf` branch): consumers "
        "never saw it.",
        "add a new field of the new type instead",
    ),
    Rule(
        "RESULT_ENUM_VALUE_NO_ADD",
        WIRE,
        ERROR,
        "A result `enum` gets no new value (unless the old schema said `x-extensible-enum: true`).",
        "mark the enum `x-extensible-enum: true` first, so consumers know to expect new values",
    ),
    Rule(
        "RESULT_CONSTRAINT_NO_LOOSEN",
        WIRE,
        WARNING,
        "A result's constraints do not loosen (bounds, lengths, counts, `pattern`, `format`, ...): consumers may rely "
        "on them.",
        "keep the old constraint, or tell consumers first",
    ),
    Rule(
        "RESULT_FIELD_ADDED",
        WIRE,
        ERROR,
        "No field is added to a result object that was closed (`additionalProperties: false`): consumers "
        "checking against the old schema refuse it.",
        "add fields only to open result objects",
    ),
    Rule(
        "RESULT_OBJECT_NO_OPEN",
        WIRE,
        ERROR,
        "A closed result object stays closed: consumers checking against the old schema refuse undeclared keys.",
        "keep `additionalProperties: false`; declare the fields a new version needs",
    ),
    # -- providers ------------------------------------------------------------------------------
    Rule(
        "PROVIDER_SAME_NAME",
        PROVIDER,
        ERROR,
        "The name a provider's model calls a tool by does not change.",
        "keep the old tool, deprecated with a `replacement` naming the new one, until a sunset",
    ),
    Rule(
        "PROVIDER_NO_NEW_FALLBACK",
        PROVIDER,
        WARNING,
        "No provider variant falls back to a weaker definition it did not need before (strict mode off, recursion "
        "unrolled).",
        "see the fallbacks in docs/providers.md",
    ),
    Rule(
        "PROVIDER_STILL_REPRESENTABLE",
        PROVIDER,
        ERROR,
        "Every provider variant that had a definition of the tool still has one.",
        "see docs/providers.md for what each provider refuses",
    ),
    # -- behaviour ------------------------------------------------------------------------------
    Rule(
        "TOOL_TIMEOUT_NO_DECREASE",
        BEHAVIOR,
        WARNING,
        "`timeout_s` does not shrink (or appear): calls that finished in time may now time out.",
        "keep the old deadline, or check that the slowest calls still fit",
    ),
    Rule(
        "TOOL_APPROVAL_EXPIRY_NO_SHORTEN",
        BEHAVIOR,
        WARNING,
        "`approval: {expires_s}` does not shrink (or appear below the default 24 hours): records "
        "hosts keep to resume may expire first.",
        "keep the old expiry, or check how long hosts keep a call waiting for approval",
    ),
    Rule(
        "TOOL_SAME_FLAGS",
        BEHAVIOR,
        WARNING,
        "`flags` stay as they were (`idempotent`, `retryable`, `parallel`, `streaming`, `terminal`): hosts rely "
        "on them.",
        "keep the flags, or tell the hosts that rely on them",
    ),
    Rule(
        "TOOL_TASK_SUPPORT_NO_NARROW",
        BEHAVIOR,
        ERROR,
        "`task` does not refuse a way of calling the tool it allowed (to `required`: plain calls; "
        "to `forbidden`: tasks): those calls are now refused.",
        "keep `task: optional`, or tell the callers to call it the one way left",
    ),
    Rule(
        "TOOL_NO_NEW_APPROVAL",
        BEHAVIOR,
        WARNING,
        "`requires_approval` is not added: calls that ran at once now wait for a person.",
        "tell the hosts: their agents will now wait for a person's answer",
    ),
    Rule(
        "TOOL_NO_NEW_GUARD",
        BEHAVIOR,
        ERROR,
        "No guard is added to `guards`: a host's registry refuses to be made until it registers "
        "every guard the specs name.",
        "tell the hosts to register the guard (build_registry(..., guards={name: check})) "
        "before they take this release",
    ),
    Rule(
        "TOOL_NO_NEW_SCOPE",
        BEHAVIOR,
        ERROR,
        "`auth: {scopes}` gains no scope: callers whose tokens hold only the old scopes are "
        "refused (403) and no longer see the tool.",
        "give the callers' tokens the new scope before this release is served, or protect the "
        "new behaviour with a new tool",
    ),
    Rule(
        "TOOL_SCOPE_REMOVED",
        BEHAVIOR,
        INFO,
        "`auth: {scopes}` needs fewer scopes: callers without them may now call the tool.",
        "check that every caller the old scope kept out may use the tool",
    ),
    Rule(
        "TOOL_ERROR_NO_DELETE",
        BEHAVIOR,
        WARNING,
        "Declared `errors` stay declared: hosts handle them by kind.",
        "keep declaring the error while hosts may handle it",
    ),
    Rule(
        "TOOL_RATE_LIMIT_NO_TIGHTEN",
        BEHAVIOR,
        WARNING,
        "A `rate_limit` does not appear or allow fewer calls per second.",
        "keep the old limit, or tell the hosts that call it often",
    ),
    Rule(
        "TOOL_ANNOTATION_NO_DESTRUCTIVE",
        BEHAVIOR,
        WARNING,
        "A tool annotated `destructive: false` stays so (MCP reads an absent hint as destructive).",
        "split the destructive behaviour into a new tool",
    ),
    Rule(
        "TOOL_SAME_ANNOTATIONS",
        BEHAVIOR,
        INFO,
        "The other `annotations` (MCP hints) changed.",
        "check that clients reading the hints still treat the tool as they should",
    ),
    Rule(
        "TOOL_DESCRIPTION_CHANGED",
        BEHAVIOR,
        INFO,
        "A tool's or a parameter's description or title changed: they are the model's prompt.",
        "check that the models still call the tool as intended (an evaluation, if you have one)",
    ),
    Rule(
        "TOOL_DEPRECATED",
        BEHAVIOR,
        INFO,
        "A tool newly deprecated.",
        "name a `replacement` and a `sunset`, so that callers know what to do and by when",
    ),
    # -- versions -------------------------------------------------------------------------------
    Rule(
        "VERSION_BUMP_TOO_SMALL",
        WIRE,
        ERROR,
        "Where both sides declare a version (`[tool.toolgen] version`, a tool's `version`), it rises at least as "
        "much as the findings need (an error: major; a warning or an addition: minor; else patch; below 1.0.0 "
        "one step less).",
        "raise the version to the one the message names (or undo the change)",
    ),
)
BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}
BEGIN, END = (
    "<!-- breaking rule table: generated from breaking/rules.py -->",
    "<!-- end of breaking rule table -->",
)


def table() -> str:
    lines = ["| rule | category | severity | what | the way out |", "|---|---|---|---|---|"]
    lines += [
        f"| `{r.id}` | {r.category} | {r.severity} | {doctable.cell(r.summary)} | {doctable.cell(r.hint)} |"
        for r in RULES
    ]
    return "\n".join(lines) + "\n"


def with_table(document: str) -> str:
    """A document with the text between the table's markers replaced by the current table."""
    return doctable.with_table(document, BEGIN, END, table())


def main(argv: list[str]) -> int:
    """`python -m toolgen.breaking.rules [--write DOC]`: print the table, or rewrite it in DOC."""
    return doctable.main(argv, BEGIN, END, table)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
