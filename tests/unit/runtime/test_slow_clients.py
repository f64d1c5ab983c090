"""runtime/serving/guard.py: the deadlines a client has to send its request, their defaults, the
environment variables that set others (which tests/functional/serving/test_mcp_serve.py uses
to see a slow client cut off in seconds) and the refusal of a value set but not a number of
seconds; the limits read once and what a connection then holds to."""

from __future__ import annotations

import asyncio

import pytest

from toolgen.runtime.serving import guard
from toolgen.runtime.serving.guard import (
    BODY_ENV,
    BODY_S,
    HEADERS_ENV,
    HEADERS_S,
    MAX_CONNECTIONS,
    Limits,
    connection_cap,
    deadlines,
    limits,
)


def test_the_defaults_are_ten_seconds_for_headers_and_thirty_for_a_body() -> None:
    assert (HEADERS_S, BODY_S) == (10.0, 30.0)
    assert deadlines({}) == (10.0, 30.0)
    assert Limits() == Limits(10.0, 30.0, MAX_CONNECTIONS) and MAX_CONNECTIONS == 1000


def test_the_environment_sets_other_seconds() -> None:
    assert (HEADERS_ENV, BODY_ENV) == ("TOOLGEN_SERVE_HEADERS_S", "TOOLGEN_SERVE_BODY_S")
    assert deadlines({HEADERS_ENV: "1", BODY_ENV: "2.5"}) == (1.0, 2.5)
    assert deadlines({BODY_ENV: "60"}) == (10.0, 60.0)
    assert deadlines({HEADERS_ENV: " 0.25 ", BODY_ENV: "1e3"}) == (0.25, 1000.0)


@pytest.mark.parametrize("name", [HEADERS_ENV, BODY_ENV])
@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("", "''"),
        ("soon", "'soon'"),
        ("0", "'0'"),
        ("-1", "'-1'"),
        ("nan", "'nan'"),
        ("inf", "'inf'"),
        ("-inf", "'-inf'"),
        ("1 second" * 20, repr("1 second" * 5 + "...")),  # too long to repeat whole: cut
    ],
)
def test_a_value_set_but_not_a_positive_number_is_refused(
    name: str, value: str, shown: str
) -> None:
    default = {HEADERS_ENV: "10", BODY_ENV: "30"}[name]
    with pytest.raises(ValueError) as refused:
        deadlines({name: value})
    assert str(refused.value) == (
        f"{name}={shown} is not a number of seconds: set it to a positive number (like 2.5), "
        f"or unset it for the default, {default}"
    )


def test_a_long_value_is_cut_in_the_message() -> None:
    with pytest.raises(ValueError, match=r"=' {40}\.\.\.' is not") as refused:
        deadlines({BODY_ENV: " " * 1000})
    assert len(str(refused.value)) < 200


def test_without_a_mapping_they_are_read_from_this_process_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(HEADERS_ENV, "3")
    monkeypatch.delenv(BODY_ENV, raising=False)
    assert deadlines() == (3.0, 30.0)
    assert limits() == Limits(3.0, 30.0, connection_cap())


def test_the_limits_are_the_deadlines_and_the_cap_below_the_descriptor_limit() -> None:
    resource = pytest.importorskip("resource")
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    expected = (
        MAX_CONNECTIONS
        if soft == resource.RLIM_INFINITY
        else max(16, min(MAX_CONNECTIONS, soft - guard.RESERVED))
    )
    assert limits({BODY_ENV: "7"}) == Limits(10.0, 7.0, expected)


class _Loop:
    """What a connection asks of its event loop: the deadlines it sets, recorded. Their
    handles belong to one real loop, closed with this one (an event loop left open is a
    ResourceWarning reported against whichever test runs next)."""

    def __init__(self) -> None:
        self.later: list[float] = []
        self.real = asyncio.new_event_loop()

    def __enter__(self) -> _Loop:
        return self

    def __exit__(self, *exc: object) -> None:
        self.real.close()

    def call_later(self, seconds: float, callback: object) -> asyncio.TimerHandle:
        self.later.append(seconds)
        return asyncio.TimerHandle(seconds, lambda: None, (), self.real)


class _Transport:
    def __init__(self) -> None:
        self.closed = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5000)}.get(name, default)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


def test_a_connection_holds_to_the_limits_it_was_given_not_to_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`use` sets what every later connection holds to: neither the environment (set to what
    would be refused) nor the descriptor limit is read per connection."""
    import uvicorn
    from uvicorn.server import ServerState

    async def app(scope: object, receive: object, send: object) -> None:
        raise AssertionError("no request is made")

    monkeypatch.setattr(guard, "_LIMITS", guard._LIMITS)  # restored after the test
    monkeypatch.setattr(guard, "_OPEN", {})
    monkeypatch.setenv(HEADERS_ENV, "soon")
    monkeypatch.setattr(guard, "connection_cap", lambda: pytest.fail("read per connection"))
    guard.use(Limits(0.5, 4.0, 2))
    config, state = uvicorn.Config(app, log_level="warning"), ServerState()
    config.load()
    made = []
    with _Loop() as loop:
        for _ in range(3):
            connection = guard.Guarded(config, state, {}, _loop=loop)  # type: ignore[arg-type]
            connection.connection_made(_Transport())  # type: ignore[arg-type]
            made.append(connection)
    assert loop.later == [0.5, 0.5, 0.5]  # each waits 0.5 s for its headers
    # The third is past the cap of 2: the oldest connection waiting for a request is closed.
    assert [c.transport.is_closing() for c in made] == [True, False, False]
    assert list(guard._OPEN) == made[1:]
