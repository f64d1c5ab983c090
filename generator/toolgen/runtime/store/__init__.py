# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Group `store`: the state the call policies keep (rate-limit windows, result caches,
concurrency leases, used suspension records), in this process or shared by a fleet.

`base.py` is the interface every store implements, `named.py` opens the one a URL names; `memory.py` the
embedded store of one process (the default); `redis.py` a store on Redis that every process
of a fleet shares (the `redis` extra, imported only when a `redis://` store is opened).
It imports only the standard library (and `redis`, in `redis.py`); `calls` reads it.
"""
