"""The words of what a model reads: prose and identifiers split into words, their base forms,
synonyms, and the word lists the description rules read (check/rules/description_quality.py).

Words are letters and digits (any script); identifiers are split at `_`, `-`, `.` and case
changes (`getWeather` -> get, weather); two words are the same when they share a base form
(`gets`, `getting` -> get; `lists`, `listed` -> list; `queries` -> query) or are synonyms of
identifiers (`SYNONYMS`). Word lists, never a model: deterministic and cheap.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import dropwhile

_WORD = re.compile(r"[^\W_]+")
_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[^\W\d_A-Za-z]+|\d+")
# CJK, kana, hangul: scripts written without spaces between words
_WIDE = re.compile(r"[\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")

# Words that say nothing about a tool on their own (a restatement made of them and the
# name's words restates the name).
TOOL_FILLER = frozenset(
    """
a an the this that these those it its tool tools function functions method api endpoint service call calls
to for of in on at by with from into via and or as is are be will can may which who what use used using
given specified provided based all any some e g i eg ie etc you your we our my me please here there
info information detail details data specific particular certain new existing
""".split()
)
# ... and about a parameter.
PARAMETER_FILLER = TOOL_FILLER | frozenset(
    """
parameter parameters param params argument arguments arg args input inputs field fields value values
""".split()
)
# A type, said in words: a description made of these (and the name's words) gives the type only.
TYPE_WORDS = frozenset(
    """
string str text integer int number num numeric boolean bool flag array list dict dictionary map json null none
id identifier item element type key
""".split()
)
# Words that name the same thing in identifiers and prose (`getUserInfo`: "Retrieve user details").
SYNONYMS = tuple(
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
VERBS = frozenset(
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
GIVING_VERBS = frozenset(
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
OBJECT_STARTERS = frozenset(
    """
a an the this that these those my your our their its his her some all any each every one two three several
whose whether which what how if when where who el la los las le les un una une des der die das ein eine
""".split()
)
VERB_ENDINGS = ("ize", "ise", "ify", "ate")
# Words that say what comes back.
RESULT_WORDS = frozenset(
    "return output yield respond response result give produce emit answer".split()
)
# Words that say the tool can fail.
FAILURE_WORDS = frozenset(
    "fail failure error refuse reject raise exception unable cannot unless".split()
)
# Error kinds' words that say nothing on their own (`invalid_error` -> invalid).
KIND_FILLER = frozenset("error err failed failure exception".split())


_ASCII_LETTER = re.compile("[A-Za-z]")  # str.isalpha() of an ASCII character


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
def same(word: str, other: str) -> bool:
    """The same word, inflected or not, or a synonym of identifiers (`SYNONYMS`)."""
    mine, theirs = bases(word), bases(other)
    return bool(mine & theirs) or any(group & mine and group & theirs for group in SYNONYMS)


def within(word: str, vocabulary: frozenset[str]) -> bool:
    return not bases(word).isdisjoint(vocabulary)


def in_english(text: str) -> bool:
    if text.isascii():  # most descriptions: every letter is an ASCII one
        return _ASCII_LETTER.search(text) is not None
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
    return bool(content) and all(any(same(w, n) for n in own) for w in content)


def states_action(said: list[str]) -> bool:
    """Whether a description has a verb for what the tool does: a known verb anywhere, or a first
    word (after "This tool", "A", ...) that reads as one by its ending or by the object after it."""
    if any(within(w, VERBS) for w in said):
        return True
    rest = list(dropwhile(lambda w: w in TOOL_FILLER, said))
    return bool(rest) and (
        rest[0].endswith(VERB_ENDINGS) or len(rest) > 1 and rest[1] in OBJECT_STARTERS
    )
