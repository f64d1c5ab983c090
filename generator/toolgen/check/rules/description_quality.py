"""description-purpose, description-parameters, description-returns, description-errors, description-length:
what a model reads of a tool says what the tool does, what each parameter means, what comes
back and when it fails, at a length worth its tokens.

Every provider shows the model a tool's name, its description and its parameters' schemas,
nothing else: no `returns` (but MCP's `outputSchema`), no `errors`. These rules read the
written descriptions with word lists, never a model: deterministic, cheap, and each warning
names what it looked for. A missing description is `description-missing`'s alone; these
rules read only descriptions that are there. docs/spec-format.md says what fires each one
and how to fix it.

Words are letters and digits (any script); identifiers are split at `_`, `-`, `.` and case
changes (`getWeather` -> get, weather); two words are the same when they share a base form
(`gets`, `getting` -> get; `lists`, `listed` -> list; `queries` -> query). The verb checks
run on English text only (most letters ASCII): another language gets the name and length
checks alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from itertools import dropwhile

from toolgen.check.context import CheckedTool, Context, Rule, warn
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.schema.pointer import child
from toolgen.schema.walk import walk

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

_WORD = re.compile(r"[^\W_]+")
_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[^\W\d_A-Za-z]+|\d+")
# CJK, kana, hangul: scripts written without spaces between words
_WIDE = re.compile(r"[\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")

# Words that say nothing about a tool on their own (a restatement made of them and the
# name's words restates the name).
_TOOL_FILLER = frozenset(
    """
a an the this that these those it its tool tools function functions method api endpoint service call calls
to for of in on at by with from into via and or as is are be will can may which who what use used using
given specified provided based all any some e g i eg ie etc you your we our my me please here there
info information detail details data specific particular certain new existing
""".split()
)
# ... and about a parameter.
_PARAMETER_FILLER = _TOOL_FILLER | frozenset(
    """
parameter parameters param params argument arguments arg args input inputs field fields value values
""".split()
)
# A type, said in words: a description made of these (and the name's words) gives the type only.
_TYPE_WORDS = frozenset(
    """
string str text integer int number num numeric boolean bool flag array list dict dictionary map json null none
id identifier item element type key
""".split()
)
# Words that name the same thing in identifiers and prose (`getUserInfo`: "Retrieve user details").
_SYNONYMS = tuple(
    frozenset(group.split())
    for group in (
        "get retrieve fetch obtain",
        "search find lookup",
        "calc calculate compute",
        "stat stats statistic statistics",
        "num number",
        "img image",
        "msg message",
        "repo repository",
        "dir directory folder",
        "config configuration settings",
        "doc document",
        "db database",
        "id identifier",
        "desc description",
        "addr address",
        "qty quantity",
        "max maximum",
        "min minimum",
        "del delete remove",
        "url link uri",
    )
)

# Verbs that say what a tool does (base forms; `gets`, `listed`, `copying` are found through them).
_VERBS = frozenset(
    """
accept access accumulate acknowledge acquire activate add adjust administer aggregate alert align allocate allow
analyse analyze annotate answer append apply approve archive arrange ask assess assign attach audit authenticate
authorize automate back backup ban batch block book bookmark broadcast browse build bulk burn buy calculate
calibrate call cancel capture categorize change charge chat check checkout choose classify clean clear click clone
close collect combine comment commit compare compile complete compose compress compute conduct configure confirm
connect consolidate contact control convert copy correct count crawl create crop deal debug decline decode decrease
decrypt deduct delete deliver demonstrate deploy deposit describe design detect determine diagnose diff disable
disclose disconnect discover dismiss dispatch dispense display distribute divide do donate download draft drag draw
drop duplicate edit email embed emit enable encode encrypt end engage enhance enqueue enrich enroll ensure enter
erase establish estimate evaluate examine exchange execute expand explain explore export extend extract factor fetch
figure file fill filter find finish fit fix flag follow forecast fork format forward gather generate geocode get
give grant group guess handle help hide highlight hire hold hover identify ignore implement import improve include
increase index indicate inform initialize initiate insert inspect install integrate interpret invest invite invoke
issue join jump keep kill label launch learn leave let lint list load locate lock log login logout look lookup make
manage map mark match measure merge message migrate mint mix modify monitor mount move multiply mute name navigate
normalize note notify obtain offer open optimize order organize output overwrite paginate parse pause pay perform
pick pin ping place plan play plot populate post predict prepare present press preview print process produce provide
provision publish pull purchase push put query queue quote rank rate read reboot receive recognize recommend
reconcile record recover redact redeem redirect reduce refresh refund register reject release reload remember remind
remove rename render renew rent reorder repair replace reply report request require reschedule reserve reset resize
resolve respond restart restore resume retrieve return reverse review revoke rewrite rotate round route run sample
save scale scan schedule score scrape screenshot scroll search segment select sell send serve set setup share show
shuffle shutdown sign simulate skip sleep snapshot solve sort specify split start stop store stream submit subscribe
subtract suggest sum summarise summarize suspend switch sync synchronize tag take test think toggle track train
transcribe transfer transform translate trigger truncate tune type unarchive unblock undo uninstall unlock unmute
unpin unsubscribe update upgrade upload upsert use validate verify view visit vote wait walk watch wipe withdraw
write yield zip
""".split()
)
# Verbs whose object is what comes back: "Get the weather" says the weather is the result.
_GIVING_VERBS = frozenset(
    """
analyse analyze answer assess browse calculate check classify compare compute convert count crawl describe detect
determine diagnose diff discover divide download estimate evaluate examine explain explore export extract fetch find
forecast generate geocode get guess identify inspect interpret list load locate look lookup match measure monitor
multiply obtain parse predict preview provide query quote rank read recognize recommend render retrieve sample scan
score scrape screenshot search show simulate solve sort subtract suggest sum summarise summarize tell test track
transcribe transform translate validate verify view
""".split()
)
# After one of these, a description's first word is read as a verb ("Rent a car", "Checks whether ...");
# a few articles of other languages written in ASCII letters are among them.
_OBJECT_STARTERS = frozenset(
    """
a an the this that these those my your our their its his her some all any each every one two three several
whose whether which what how if when where who el la los las le les un una une des der die das ein eine
""".split()
)
_VERB_ENDINGS = ("ize", "ise", "ify", "ate")
# Words that say what comes back.
_RESULT_WORDS = frozenset(
    "return output yield respond response result give produce emit answer".split()
)
# Words that say the tool can fail.
_FAILURE_WORDS = frozenset(
    "fail failure error refuse reject raise exception unable cannot unless".split()
)
# Error kinds' words that say nothing on their own (`invalid_error` -> invalid).
_KIND_FILLER = frozenset("error err failed failure exception".split())


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        text = tool.spec.description.strip()
        if text:
            yield from _tool(tool, text)
        yield from _parameters(tool)


# -- words -------------------------------------------------------------------------------------------


def words(text: str) -> list[str]:
    """The words of prose, lowercased."""
    return [w.lower() for w in _WORD.findall(text)]


def identifier_words(name: str) -> list[str]:
    """The words of an identifier: `get_weather`, `getWeather`, `get-weather` -> get, weather."""
    return [part.lower() for part in _PART.findall(name)]


@lru_cache(maxsize=4096)
def bases(word: str) -> frozenset[str]:
    """A word's possible base forms (English inflections; not a stemmer: a word and its guesses)."""
    found = {word}
    for ending, back in (
        ("ies", "y"),
        ("ied", "y"),
        ("es", ""),
        ("s", ""),
        ("ed", ""),
        ("ed", "e"),
        ("d", ""),
        ("ing", ""),
        ("ing", "e"),
    ):
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            stem = word[: len(word) - len(ending)] + back
            found.add(stem)
            if back == "" and ending in ("ed", "ing") and len(stem) > 2 and stem[-1] == stem[-2]:
                found.add(stem[:-1])  # stopped -> stop, running -> run
    return frozenset(found)


@lru_cache(maxsize=4096)
def _same(word: str, other: str) -> bool:
    """The same word, inflected or not, or a synonym of identifiers (`_SYNONYMS`)."""
    mine, theirs = bases(word), bases(other)
    return bool(mine & theirs) or any(group & mine and group & theirs for group in _SYNONYMS)


def _in(word: str, vocabulary: frozenset[str]) -> bool:
    return not bases(word).isdisjoint(vocabulary)


def _english(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and sum(ch.isascii() for ch in letters) >= 0.9 * len(letters)


def word_count(text: str) -> int:
    """Words of prose; in scripts written without spaces (CJK), two characters count as one."""
    wide = len(_WIDE.findall(text))
    return len(_WORD.findall(_WIDE.sub(" ", text))) + (wide + 1) // 2


def restates(text: str, name: str, filler: frozenset[str]) -> bool:
    """Whether every word of `text` but the filler is a word of `name` (and at least one is)."""
    own = identifier_words(name)
    content = [w for w in words(text) if w not in filler]
    return bool(content) and all(any(_same(w, n) for n in own) for w in content)


# -- the tool's description ---------------------------------------------------------------------------


def _tool(tool: CheckedTool, text: str) -> Iterator[Diagnostic]:
    at = tool.at("/description")
    name = tool.name
    english = _english(text)
    said = words(text)
    # A description that does not say what the tool does is reported once, as that: not also
    # as too short or as silent about the result.
    purposeless = True
    if restates(text, name, _TOOL_FILLER):
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


def states_action(said: list[str]) -> bool:
    """Whether a description has a verb for what the tool does: a known verb anywhere, or a first
    word (after "This tool", "A", ...) that reads as one by its ending or by the object after it."""
    if any(_in(w, _VERBS) for w in said):
        return True
    rest = list(dropwhile(lambda w: w in _TOOL_FILLER, said))
    return bool(rest) and (
        rest[0].endswith(_VERB_ENDINGS) or len(rest) > 1 and rest[1] in _OBJECT_STARTERS
    )


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
    if any(_in(w, _RESULT_WORDS) for w in said):
        return False
    verb = _leading_verb(said)
    return verb is None or not _in(verb, _GIVING_VERBS)


def _leading_verb(said: list[str]) -> str | None:
    """The first verb of the description: what it says the tool does ("This tool gets ...": get)."""
    return next((w for w in said[:12] if w not in _TOOL_FILLER and _in(w, _VERBS)), None)


def _errors(tool: CheckedTool, text: str, said: list[str], at: str) -> Iterator[Diagnostic]:
    if any(_in(w, _FAILURE_WORDS) for w in said) or "can't" in text.lower():
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
    phrase = [w for w in identifier_words(kind) if w not in _KIND_FILLER] or identifier_words(kind)
    joined = "".join(phrase)
    for i in range(len(said)):
        if all(i + j < len(said) and _same(said[i + j], w) for j, w in enumerate(phrase)):
            return True
        if said[i] == joined:
            return True
    return False


# -- parameters ---------------------------------------------------------------------------------------


def _parameters(tool: CheckedTool) -> Iterator[Diagnostic]:
    for pointer, node in walk(tool.spec.parameters, tool.at("/parameters")):
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


def parameter_problem(name: str, text: str) -> str:
    """What is wrong with a parameter's description ("" when nothing this rule sees)."""
    said = words(text)
    if not said:
        return "has no words"
    content = [w for w in said if w not in _PARAMETER_FILLER]
    if not content:
        return "says nothing about it"
    own = identifier_words(name)
    named = [w for w in content if any(_same(w, n) for n in own)]
    if len(named) == len(content):
        return "restates its name"
    if all(w in named or _in(w, _TYPE_WORDS) for w in content):
        return "says only its type" if not named else "says only its name and type"
    return ""


def _quote(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")
