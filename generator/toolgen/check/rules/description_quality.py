"""description-purpose, description-parameters, description-returns, description-errors, description-length:
what a model reads of a tool says what the tool does, what each parameter means, what comes
back and when it fails, at a length worth its tokens.

Every provider shows the model a tool's name, its description and its parameters' schemas,
nothing else: no `returns` (but MCP's `outputSchema`), no `errors`. These rules read the
written descriptions with word lists, never a model: deterministic, cheap, and each warning
names what it looked for. A missing description is `description-missing`'s alone; these
rules read only descriptions that are there. docs/spec-format.md says what fires each one
and how to fix it.

The words are check/wording.py's (how prose and identifiers split, base forms, synonyms,
the word lists). The verb checks run on English text only (most letters ASCII): another
language gets the name and length checks alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from toolgen.check.context import CheckedTool, Context, Rule, warn
from toolgen.check.wording import (
    FAILURE_WORDS,
    GIVING_VERBS,
    KIND_FILLER,
    PARAMETER_FILLER,
    RESULT_WORDS,
    TOOL_FILLER,
    TYPE_WORDS,
    VERBS,
    identifier_words,
    in_english,
    restates,
    same,
    states_action,
    within,
    word_count,
    words,
)
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.schema.pointer import child

ID = "description-purpose"
SUMMARY = (
    "A tool's description says what the tool does: more than its name restated (`get_weather`: \"Gets "
    'weather."), with a verb for what it does ("Get", "Lists", "Creates", ...).'
)
SEVERITY = Severity.WARNING
PARAMETERS = "description-parameters"
RETURNS = "description-returns"
ERRORS = "description-errors"
LENGTH = "description-length"
MORE = (
    Rule(
        PARAMETERS,
        Severity.WARNING,
        "A parameter's description says what the value means: more than its name "
        'restated or its type (`user_id`: "The user ID", "string").',
    ),
    Rule(
        RETURNS,
        Severity.WARNING,
        'A tool\'s description says what the tool gives back ("Returns ...", or a verb '
        'whose object is the result: "Get", "List", "Search", ...), unless '
        "`returns` has its own description, the result is `null`, or the tool ends the "
        "turn (`terminal`, `kind: return`).",
    ),
    Rule(
        ERRORS,
        Severity.WARNING,
        "A tool that declares `errors` says when it fails in its description (the only "
        'part a model reads): a kind\'s words (`not_found`: "not found") or a failure '
        "word (fails, error, refused, ...).",
    ),
    Rule(
        LENGTH,
        Severity.WARNING,
        "A tool's description has at least 4 words and at most 1,500 characters "
        "(about 375 tokens, sent with every request).",
    ),
)

MIN_WORDS = 4
MAX_CHARACTERS = 1500


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        text = tool.spec.description.strip()
        if text:
            yield from _tool(tool, text)
        yield from _parameters(tool)


# -- the tool's description ---------------------------------------------------------------------------


def _tool(tool: CheckedTool, text: str) -> Iterator[Diagnostic]:
    at = tool.at("/description")
    name = tool.name
    english = in_english(text)
    said = words(text)
    # A description that does not say what the tool does is reported once, as that: not also
    # as too short or as silent about the result.
    purposeless = True
    if restates(text, name, TOOL_FILLER):
        yield warn(
            tool.doc,
            at,
            ID,
            f"the description of {name!r} restates its name ({_quote(text)})",
            hint="say what the tool does, to what, and when to use it (and when not)",
        )
    elif english and not states_action(said):
        yield warn(
            tool.doc,
            at,
            ID,
            f"the description of {name!r} has no verb saying what the tool does ({_quote(text)})",
            hint='start with what it does: "Get ...", "Lists ...", "Creates ..."',
        )
    else:
        purposeless = False
    count = word_count(text)
    if count < MIN_WORDS and not purposeless:
        yield warn(
            tool.doc,
            at,
            LENGTH,
            f"the description of {name!r} has {count} word{'s' * (count != 1)}, "
            f"fewer than {MIN_WORDS} ({_quote(text)})",
            hint="say what the tool does, what it returns and when to use it",
        )
    elif len(text) > MAX_CHARACTERS:
        yield warn(
            tool.doc,
            at,
            LENGTH,
            f"the description of {name!r} has {len(text):,} characters, more than the "
            f"budget of {MAX_CHARACTERS:,} (about {len(text) // 4:,} tokens with "
            "every request)",
            hint="keep what the model needs to choose and call the tool; move the rest to parameter "
            "descriptions or documentation",
        )
    if english and not purposeless and _says_nothing_returned(tool, said):
        yield warn(
            tool.doc,
            at,
            RETURNS,
            f"the description of {name!r} does not say what the tool returns",
            hint='say what comes back ("Returns the new issue\'s number and URL."), or describe '
            "`returns`",
        )
    if tool.spec.errors and english:
        yield from _errors(tool, text, said, at)


def _says_nothing_returned(tool: CheckedTool, said: list[str]) -> bool:
    spec = tool.spec
    if "terminal" in spec.flags or spec.kind == "return":
        return False  # its result ends the turn: the model never reads it
    returns = spec.returns
    if (
        returns is False
        or isinstance(returns, dict)
        and (returns.get("type") == "null" or str(returns.get("description", "")).strip())
    ):
        return False  # nothing comes back, or the result describes itself
    if any(within(w, RESULT_WORDS) for w in said):
        return False
    verb = _leading_verb(said)
    return verb is None or not within(verb, GIVING_VERBS)


def _leading_verb(said: list[str]) -> str | None:
    """The first verb of the description: what it says the tool does ("This tool gets ...": get)."""
    return next((w for w in said[:12] if w not in TOOL_FILLER and within(w, VERBS)), None)


def _errors(tool: CheckedTool, text: str, said: list[str], at: str) -> Iterator[Diagnostic]:
    if any(within(w, FAILURE_WORDS) for w in said) or "can't" in text.lower():
        return
    kinds = [error.kind for error in tool.spec.errors]
    if any(_mentions(said, text, kind) for kind in kinds):
        return
    listed = ", ".join(kinds[:6]) + (f" and {len(kinds) - 6} more" if len(kinds) > 6 else "")
    yield warn(
        tool.doc,
        at,
        ERRORS,
        f"{tool.name!r} declares errors ({listed}), but its description names none "
        "of them nor says when the tool fails",
        hint='providers show the model only the description: say when it fails ("Fails with not_found '
        'when no city matches.")',
    )


def _mentions(said: list[str], text: str, kind: str) -> bool:
    """Whether the description names an error kind: the kind as written, or its words in a row."""
    if kind.lower() in text.lower():
        return True
    phrase = [w for w in identifier_words(kind) if w not in KIND_FILLER] or identifier_words(kind)
    joined = "".join(phrase)
    for i in range(len(said)):
        if all(i + j < len(said) and same(said[i + j], w) for j, w in enumerate(phrase)):
            return True
        if said[i] == joined:
            return True
    return False


# -- parameters ---------------------------------------------------------------------------------------


def _parameters(tool: CheckedTool) -> Iterator[Diagnostic]:
    root = tool.at("/parameters")
    inside = root + "/"
    for pointer, node in tool.subschemas:  # those of `parameters` come first
        if pointer != root and not pointer.startswith(inside):
            break
        for name, sub in (node.get("properties") or {}).items():
            if not isinstance(sub, dict) or not isinstance(sub.get("description"), str):
                continue
            text = sub["description"].strip()
            if not text:
                continue  # description-missing's
            problem = parameter_problem(name, text)
            if problem:
                yield warn(
                    tool.doc,
                    child(child(f"{pointer}/properties", name), "description"),
                    PARAMETERS,
                    f"the description of parameter {name!r} {problem} ({_quote(text)})",
                    hint="say what the value means and how to choose it: its unit, format, range, an "
                    "example, where to get it",
                )


@lru_cache(maxsize=4096)  # the same property names and descriptions recur across tools
def parameter_problem(name: str, text: str) -> str:
    """What is wrong with a parameter's description ("" when nothing this rule sees)."""
    said = words(text)
    if not said:
        return "has no words"
    content = [w for w in said if w not in PARAMETER_FILLER]
    if not content:
        return "says nothing about it"
    own = identifier_words(name)
    named = [w for w in content if any(same(w, n) for n in own)]
    if len(named) == len(content):
        return "restates its name"
    if all(w in named or within(w, TYPE_WORDS) for w in content):
        return "says only its type" if not named else "says only its name and type"
    return ""


def _quote(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")
