"""durable.flush: syncfs(2) of the file system holding the path where the C library has it,
os.sync() where it has not or the call fails."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from toolgen import durable


def _calls(monkeypatch: pytest.MonkeyPatch, answer: int) -> tuple[list[int], list[str]]:
    synced: list[int] = []
    everything: list[str] = []

    def syncfs(fd: int) -> int:
        synced.append(os.fstat(fd).st_ino)
        return answer

    monkeypatch.setattr(durable, "_SYNCFS", [syncfs])
    monkeypatch.setattr(os, "sync", lambda: everything.append("sync"), raising=False)
    return synced, everything


def test_the_file_system_of_the_path_is_flushed_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced, everything = _calls(monkeypatch, 0)
    durable.flush(tmp_path)
    assert synced == [tmp_path.stat().st_ino] and everything == []


def test_a_failed_syncfs_falls_back_to_syncing_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced, everything = _calls(monkeypatch, -1)
    durable.flush(tmp_path)
    assert len(synced) == 1 and everything == ["sync"]


def test_without_syncfs_everything_is_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, everything = _calls(monkeypatch, 0)
    monkeypatch.setattr(durable, "_SYNCFS", [None])
    durable.flush(tmp_path / "gone")
    assert everything == ["sync"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="syncfs is Linux's")
def test_linux_finds_syncfs_in_its_c_library(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(durable, "_SYNCFS", [])
    call = durable._syncfs()
    assert call is not None
    fd = os.open(".", os.O_RDONLY)
    try:
        assert call(fd) == 0
    finally:
        os.close(fd)
