"""runtime/serving/command.py: what a worker process of `serve --http` takes from `main` (the
settings in TOOLGEN_SERVE, the guard's limits read once) and that it sets aside what start-up
made before serving (gc.freeze: a full collection then scans only what requests make). Run as
the built-in package's copy of the runtime, whose registry it serves."""

from __future__ import annotations

import gc
import importlib
import json
from types import ModuleType

import pytest


@pytest.fixture
def modules() -> tuple[ModuleType, ModuleType]:
    """command.py and guard.py as imported now: another test may have made the package be
    imported again since this module was (what `worker_app` imports is then the new copy)."""
    serving = "toolgen_builtin._runtime.serving"
    return importlib.import_module(f"{serving}.command"), importlib.import_module(
        f"{serving}.guard"
    )


@pytest.fixture
def settings(
    modules: tuple[ModuleType, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> dict[str, object]:
    _, guard = modules
    monkeypatch.setattr(guard, "_LIMITS", guard._LIMITS)  # restored after the test
    chosen = {
        "package": "toolgen_builtin",
        "registry": "implementations:registry",
        "token_env": "TOOLGEN_MCP_TOKEN",
        "stateful": False,
        "log_level": "warning",
        "host": "127.0.0.1",
        "list_ttl_ms": 0,
        "auth": None,
        "ui": None,
        "limits": {"headers_s": 2.5, "body_s": 7.0, "connections": 40},
    }
    monkeypatch.setenv("TOOLGEN_SERVE", json.dumps(chosen))
    monkeypatch.setenv(guard.HEADERS_ENV, "soon")  # what main read is what counts
    return chosen


def test_a_worker_holds_its_connections_to_the_limits_main_read(
    modules: tuple[ModuleType, ModuleType],
    settings: dict[str, object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    command, guard = modules
    monkeypatch.setattr(command, "_settled", lambda: None)
    command.worker_app()
    assert guard._LIMITS == guard.Limits(2.5, 7.0, 40)


def test_a_worker_freezes_what_start_up_made_after_collecting_its_garbage(
    modules: tuple[ModuleType, ModuleType],
    settings: dict[str, object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    command, _ = modules
    done: list[str] = []
    monkeypatch.setattr(gc, "collect", lambda *_: done.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: done.append("freeze"))
    app = command.worker_app()
    assert done == ["collect", "freeze"]
    assert app.routes  # the app was made before
