"""Glob patterns matched without backtracking, one path segment at a time.

A pattern is a list of segments ("src", "*.py", "**"). Within a segment, `*` matches any
run of characters, `?` one character and `[...]` one character of a set (`[!...]` not of
it), with fnmatch's rules for sets. A segment is matched by splitting it at its stars into
chunks: the first chunk must match at the start of the name, the last at its end, and the
middle ones are found leftmost-first, in order, in between. Leftmost-first is always right
for star-separated chunks, so nothing is ever retried: a chunk of literal characters is a
`str.find`, any other chunk a bit-parallel scan (shift-and), each linear in the name.

`**` segments make the pattern a small automaton over segments: the walk carries, for each
directory, the set of pattern positions it can be at, so every directory is visited once
however many `**` the pattern has (fnmatch and regex translations retry every split and
take exponential time on patterns such as `*a*a*a*a*a*b` or `**/**/**/.../x`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_SEGMENTS = 32  # segments of a pattern after normalization
MAX_GLOBSTARS = 8  # `**` segments of a pattern (a run such as "**/**" counts once)
MAX_SEGMENT_LENGTH = 255  # characters of one segment (a longer one cannot match a file name anyway)


class PatternError(ValueError):
    """A pattern refused: `kind` is the glob tool's error kind (invalid_pattern, pattern_too_complex)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class CharSet:
    """`[...]`: characters and inclusive ranges, possibly negated."""

    negate: bool
    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]

    def matches(self, char: str) -> bool:
        found = char in self.chars or any(low <= char <= high for low, high in self.ranges)
        return found != self.negate


ANY = "?"  # the token for `?` (literal characters are 1-character strings inside a Literal)


@dataclass(frozen=True)
class Literal:
    char: str


Token = Literal | CharSet | str  # str is only ever ANY


def _token_matches(token: Token, char: str) -> bool:
    if isinstance(token, Literal):
        return token.char == char
    if isinstance(token, CharSet):
        return token.matches(char)
    return True  # ANY


@dataclass
class Chunk:
    """Star-free run of tokens: matched at a fixed place, or found leftmost."""

    tokens: tuple[Token, ...]
    literal: str | None = None  # the text, when every token is a literal character
    _masks: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if all(isinstance(t, Literal) for t in self.tokens):
            self.literal = "".join(t.char for t in self.tokens if isinstance(t, Literal))

    def __len__(self) -> int:
        return len(self.tokens)

    def match_at(self, name: str, start: int) -> bool:
        if self.literal is not None:
            return name.startswith(self.literal, start)
        return all(_token_matches(t, name[start + i]) for i, t in enumerate(self.tokens))

    def _mask(self, char: str) -> int:
        """Bit i set when token i matches `char`."""
        mask = self._masks.get(char)
        if mask is None:
            mask = sum(1 << i for i, t in enumerate(self.tokens) if _token_matches(t, char))
            if len(self._masks) < 4096:  # the cache stays small whatever the names hold
                self._masks[char] = mask
        return mask

    def find(self, name: str, start: int, end: int) -> int:
        """The leftmost i >= start with the chunk matching name[i:i+len] inside name[:end], or -1."""
        if self.literal is not None:
            return name.find(self.literal, start, end)
        size = len(self.tokens)
        full = 1 << (size - 1)
        state = 0
        for index in range(start, end):  # shift-and: bit i = tokens[:i+1] match ending here
            state = ((state << 1) | 1) & self._mask(name[index])
            if state & full:
                return index - size + 1
        return -1


@dataclass
class Segment:
    """One segment without `**`: chunks between stars (`starred`: there was at least one star)."""

    text: str
    chunks: list[Chunk]
    starred: bool

    def matches(self, name: str, include_hidden: bool) -> bool:
        if name.startswith(".") and not include_hidden and not self.text.startswith("."):
            return False  # wildcards do not match a leading dot unless asked to
        if not self.starred:
            only = self.chunks[0]
            return len(name) == len(only) and only.match_at(name, 0)
        first, last = self.chunks[0], self.chunks[-1]
        end = len(name) - len(last)
        if end < len(first) or not first.match_at(name, 0) or not last.match_at(name, end):
            return False
        position = len(first)
        for chunk in self.chunks[1:-1]:
            found = chunk.find(name, position, end)
            if found < 0:
                return False
            position = found + len(chunk)
        return True


def _parse_set(text: str, start: int) -> tuple[CharSet, int] | None:
    """The set opening at text[start] == "[" and the index after its "]"; None when it is not closed.

    The closing bracket is found as fnmatch finds it: a "]" right after "[" or "[!" is a member.
    """
    index = start + 1
    if index < len(text) and text[index] == "!":
        index += 1
    if index < len(text) and text[index] == "]":
        index += 1
    close = text.find("]", index)
    if close < 0:
        return None
    body = text[start + 1 : close]
    negate = body.startswith("!")
    body = body[1:] if negate else body
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            low, high = body[i], body[i + 2]
            if low > high:
                raise PatternError(
                    "invalid_pattern",
                    f"the range {low}-{high} in [{text[start + 1 : close]}] is reversed",
                )
            ranges.append((low, high))
            i += 3
        else:
            chars.add(body[i])
            i += 1
    return CharSet(negate, frozenset(chars), tuple(ranges)), close + 1


def compile_segment(text: str) -> Segment:
    """A segment (no "/") as chunks between its stars."""
    chunks: list[list[Token]] = [[]]
    i = 0
    while i < len(text):
        char = text[i]
        if char == "*":
            if chunks[-1] or len(chunks) == 1:
                chunks.append([])  # consecutive stars are one star
            i += 1
        elif char == "?":
            chunks[-1].append(ANY)
            i += 1
        elif char == "[" and (parsed := _parse_set(text, i)) is not None:
            chunks[-1].append(parsed[0])
            i = parsed[1]
        else:
            chunks[-1].append(Literal(char))
            i += 1
    return Segment(text, [Chunk(tuple(c)) for c in chunks], starred=len(chunks) > 1)


GLOBSTAR = None  # a `**` segment


@dataclass
class Glob:
    """A compiled pattern: an automaton whose states are positions in its segments."""

    segments: list[Segment | None]  # None is `**`

    @property
    def final(self) -> int:
        return len(self.segments)

    def _closure(self, states: set[int]) -> frozenset[int]:
        """Add the positions reachable by letting a `**` (not the last segment) match no directory."""
        pending = list(states)
        while pending:
            state = pending.pop()
            if (
                state < self.final - 1
                and self.segments[state] is GLOBSTAR
                and state + 1 not in states
            ):
                states.add(state + 1)
                pending.append(state + 1)
        return frozenset(states)

    def start(self) -> frozenset[int]:
        return self._closure({0})

    def step(self, states: frozenset[int], name: str, include_hidden: bool) -> frozenset[int]:
        """The positions after one more path segment `name`."""
        after: set[int] = set()
        for state in states:
            if state == self.final:
                continue
            segment = self.segments[state]
            if segment is GLOBSTAR:
                if include_hidden or not name.startswith("."):
                    after.add(state)
                    if state == self.final - 1:
                        after.add(self.final)  # a trailing `**` matches one or more names
            elif segment.matches(name, include_hidden):
                after.add(state + 1)
        return self._closure(after)

    def matches(self, path: str, include_hidden: bool) -> bool:
        """Whether a "/"-separated relative path matches (for tests; the walk uses step())."""
        states = self.start()
        for name in path.split("/"):
            states = self.step(states, name, include_hidden)
            if not states:
                return False
        return self.final in states


def check_pattern(segments: list[str]) -> None:
    """PatternError("pattern_too_complex") when a normalized pattern's segments are past the limits."""
    if len(segments) > MAX_SEGMENTS:
        raise PatternError(
            "pattern_too_complex",
            f"the pattern has {len(segments)} segments; at most {MAX_SEGMENTS} are allowed",
        )
    globstars = sum(
        1 for i, s in enumerate(segments) if s == "**" and (i == 0 or segments[i - 1] != "**")
    )
    if globstars > MAX_GLOBSTARS:
        raise PatternError(
            "pattern_too_complex",
            f"the pattern has {globstars} separate '**' segments; at most "
            f"{MAX_GLOBSTARS} are allowed (one '**' already matches any depth)",
        )
    for segment in segments:
        if len(segment) > MAX_SEGMENT_LENGTH:
            raise PatternError(
                "pattern_too_complex",
                f"a segment of the pattern has {len(segment)} "
                f"characters; at most {MAX_SEGMENT_LENGTH} are allowed",
            )


def compile_glob(segments: list[str]) -> Glob:
    """The automaton for a normalized pattern's segments; PatternError when it is refused."""
    check_pattern(segments)
    compiled: list[Segment | None] = []
    for segment in segments:
        if segment == "**":
            if compiled and compiled[-1] is GLOBSTAR:
                continue  # "**/**" is "**"
            compiled.append(GLOBSTAR)
        else:
            compiled.append(compile_segment(segment))
    return Glob(compiled)
