"""runtime/serving/command.py: what a worker process of `serve --http` takes from `main` (the
settings in TOOLGEN_SERVE, the guard's limits read once) and that it sets aside what start-up
made before serving (gc.freeze: a full collection then scans only what requests make). Run as
the built-in package's copy of the runtime, whose registry it serves."""

from __future__ import annotations

import gc
import json

import pytest

from toolgen_builtin._runtime.serving import command, guard


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
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
    settings: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(command, "_settled", lambda: None)
    command.worker_app()
    assert guard._LIMITS == guard.Limits(2.5, 7.0, 40)


def test_a_worker_freezes_what_start_up_made_after_collecting_its_garbage(
    settings: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    done: list[str] = []
    monkeypatch.setattr(gc, "collect", lambda *_: done.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: done.append("freeze"))
    app = command.worker_app()
    assert done == ["collect", "freeze"]
    assert app.routes  # the app was made before
