"""Forked children (toolgen/parallel.py) made wanted for any build, and counted."""

from __future__ import annotations

import pytest

from toolgen import parallel


def counted_children(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on every build hands work to children; the list grows by one per child."""
    started: list[int] = []
    in_child = parallel.in_child

    def counted(work):  # type: ignore[no-untyped-def]
        started.append(1)
        return in_child(work)

    monkeypatch.setattr(parallel, "wanted", lambda count: True)
    monkeypatch.setattr(parallel, "in_child", counted)
    return started
