"""Functions a spec cannot describe, and two that import with a note."""

from collections.abc import Callable


def apply(callback: Callable[[int], int], value: int) -> int:
    """Apply a callback to a value."""
    return callback(value)


def log_all(*messages: str) -> None:
    """Log every message."""


def configure(**options: str) -> None:
    """Set options."""


def forward(target: "Undefined") -> None:  # type: ignore[name-defined]  # noqa: F821
    """Forward to a target this module never defines."""


def tag(item: str, when: object = object(), note=None) -> str:
    """Tag an item.

    Args:
        item: What to tag.
    """
    return item


class Greeter:
    def greet(self, name: str) -> str:
        """Greet someone by name.

        Args:
            name: Who to greet.
        """
        return f"Hello, {name}"
