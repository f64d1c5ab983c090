# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Which store a URL names: the in-process one, or Redis (imported only then)."""

from __future__ import annotations

import os
from typing import Any

from .base import ENVIRONMENT, MEMORY, shown


def open_store(url: str | None = None) -> Any:
    """The store a URL names: `memory://` (this process; the default), `redis://HOST:PORT/DB`
    (or `rediss://`, `unix://`; query `prefix=` for the keys' prefix, `lease_s=`,
    `timeout_s=`). None reads $TOOLGEN_STORE; unset or empty, the in-process store."""
    if url is None:
        url = os.environ.get(ENVIRONMENT) or MEMORY
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme == "memory":
        from .memory import MemoryStore

        return MemoryStore()
    if scheme in ("redis", "rediss", "unix"):
        try:
            from .redis import RedisStore
        except ImportError as exc:
            raise ImportError(
                f"store {shown(url)!r} needs the redis client: install the package's `redis` "
                f"extra (pip install 'PACKAGE[redis]'); {exc}"
            ) from None

        return RedisStore(url)
    raise ValueError(
        f"store {shown(url)!r}: not a store URL (memory://, redis://HOST:PORT/DB, rediss://, unix://)"
    )
