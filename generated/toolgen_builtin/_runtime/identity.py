# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Who is calling: the principal a served call was authenticated as (never its token).

A server that authenticates its clients (serving/auth.py) runs each call with `acting(principal)`,
so that whatever the call runs (an implementation, a hook, the run context, worker threads
included) reads it with `caller()`. A tool that declares the injected value `caller`
(`injected: {caller: {type: object}}`) receives `Principal.as_json()`. Outside a served call, or
on a server without authentication (stdio, no token), `caller()` is None.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

# The name of the injected value that receives the caller (a tool declares it in `injected`).
CALLER = "caller"


@dataclass(frozen=True)
class Principal:
    """An authenticated caller: the token's subject (`sub`), the client it was issued to
    (`client_id`, else `azp`), its scopes and issuer. `every_scope`: a caller that holds them
    all (the static bearer token, which names no scopes)."""

    subject: str | None = None
    client_id: str | None = None
    scopes: frozenset[str] = frozenset()
    issuer: str | None = None
    every_scope: bool = False

    def missing(self, needed: Iterable[str]) -> tuple[str, ...]:
        """The scopes of `needed` this caller does not hold, sorted (none: it may call)."""
        if self.every_scope:
            return ()
        return tuple(sorted(set(needed) - self.scopes))

    def as_json(self) -> dict[str, Any]:
        """What a tool's injected `caller` receives."""
        return {
            "subject": self.subject,
            "client_id": self.client_id,
            "scopes": sorted(self.scopes),
            "issuer": self.issuer,
            "every_scope": self.every_scope,
        }


_CALLER: contextvars.ContextVar[Principal | None] = contextvars.ContextVar(
    "toolgen_caller", default=None
)


def caller() -> Principal | None:
    """The principal of the served call under way, or None."""
    return _CALLER.get()


@contextlib.contextmanager
def acting(principal: Principal | None) -> Iterator[None]:
    """Run what is inside (and the tasks it starts) as `principal`."""
    token = _CALLER.set(principal)
    try:
        yield
    finally:
        _CALLER.reset(token)
