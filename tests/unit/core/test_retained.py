"""A build the process keeps until it exits (pipeline.RETAINED, set by toolgen's __main__)."""

from __future__ import annotations

import gc

import pytest

from tests.support.generation import REPO
from toolgen import pipeline
from toolgen.config import BuildOptions


def test_a_build_kept_until_exit_is_frozen_out_of_the_collectors_sight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The CLI keeps a build until it exits (pipeline.RETAINED): the collector is not to scan
    its objects on every collection after it; a library caller's build stays collectable."""
    specs = REPO / "tests" / "golden" / "cases" / "weather" / "specs"
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    gc.unfreeze()
    try:
        pipeline.build(specs, BuildOptions(package="weather"))
        assert gc.get_freeze_count() == 0
        monkeypatch.setattr(pipeline, "RETAINED", [])
        pipeline.build(specs, BuildOptions(package="weather"))
        assert gc.get_freeze_count() > 1000 and gc.isenabled()
    finally:
        gc.unfreeze()
