"""Where things are in a spec file: JSON pointers, the source map, load errors and limits."""

from __future__ import annotations

from collections.abc import Callable

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_NODES = 200_000  # after alias expansion
MAX_DEPTH = 64

Position = tuple[int, int]


def line_col(text: str, index: int) -> Position:
    """The 1-based (line, column) of a character index; lines end at LF."""
    start = text.rfind("\n", 0, index) + 1
    return (text.count("\n", 0, index) + 1, index - start + 1)


class SourceMap:
    """JSON pointer -> (line, col), 1-based, for values and for mapping keys.

    `compute`, when given, builds the tables on first use (JSON files: most are never asked).
    """

    def __init__(
        self,
        values: dict[str, Position] | None = None,
        keys: dict[str, Position] | None = None,
        compute: Callable[[], SourceMap] | None = None,
    ) -> None:
        self._values, self._keys, self._compute = values or {}, keys or {}, compute

    def _resolve(self) -> None:
        if self._compute is not None:
            computed, self._compute = self._compute(), None
            self._values, self._keys = computed.values, computed.keys

    @property
    def values(self) -> dict[str, Position]:
        self._resolve()
        return self._values

    @property
    def keys(self) -> dict[str, Position]:
        self._resolve()
        return self._keys

    @property
    def computed(self) -> bool:
        return self._compute is None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SourceMap) and (self.values, self.keys) == (
            other.values,
            other.keys,
        )

    def __repr__(self) -> str:
        return f"SourceMap(values={self.values!r}, keys={self.keys!r})"

    def position(self, pointer: str, *, key: bool = False) -> Position:
        table = self.keys if key else self.values
        if pointer in table:
            return table[pointer]
        # The nearest located ancestor: a missing key is reported at its parent.
        while pointer:
            pointer = pointer.rsplit("/", 1)[0]
            if pointer in self.values:
                return self.values[pointer]
        return (1, 1)


class LoadError(Exception):
    """Input that cannot be loaded, with the position of the problem."""

    def __init__(
        self, line: int, col: int, message: str, hint: str = "", *, rule: str = "syntax"
    ) -> None:
        super().__init__(message)
        self.line, self.col, self.message, self.hint, self.rule = line, col, message, hint, rule
