"""What every importer module shares: the refusal and source exceptions, and how values are shown in notes."""

from __future__ import annotations

import json
from typing import Any


class UnsupportedSchema(ValueError):
    """A definition that cannot be imported: `pointer` locates the reason, `hint` says what to do."""

    def __init__(self, pointer: str, message: str, hint: str = "") -> None:
        super().__init__(f"{pointer}: {message}" + (f" ({hint})" if hint else ""))
        self.pointer, self.message, self.hint = pointer, message, hint


class SourceError(ValueError):
    """The source as a whole cannot be read (a file, a server, a module): one line, exit 2."""


def show(value: Any, limit: int = 80) -> str:
    """A value as JSON, shortened for a one-line note."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."
