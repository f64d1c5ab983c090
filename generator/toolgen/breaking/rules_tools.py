"""The rules of `toolgen breaking` about a tool as a whole: its name, file and removal, what
the providers make of it, its behaviour (deadlines, flags, errors, policies, annotations,
lifecycle) and the declared versions. breaking/rules.py puts them in the table."""

from __future__ import annotations

from toolgen.breaking.categories import BEHAVIOR, ERROR, FILE, INFO, PROVIDER, WARNING, WIRE, Rule

# tools
TOOLS: tuple[Rule, ...] = (
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
)

# providers
PROVIDERS: tuple[Rule, ...] = (
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
)

# behaviour
BEHAVIOUR: tuple[Rule, ...] = (
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
)

# versions
VERSIONS: tuple[Rule, ...] = (
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
