# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Calls: a registry of tools, and each call of one run under its declared policies.

- `registry`: the `Registry` value: the tools it holds and what it derives from them;
- `prepare`, `running`, `resuming`, `dispatch`: a call of one of them, the parts of a
  `Registry` (its bases): prepared (`Prepared`), run under its declared policies, resumed
  once suspended, carried out in a thread (`call`) or a task (`acall`) and told to the hooks;
- `fast`: the tools whose calls take the fast path, and what it reads of each (`Plan`);
- `guards`: the host's checks of a call before its run and of its result after;
- `context`: what an implementation or a guard that asks learns of its call (`RunContext`);
- `policies`: the state of rate limits, result caches and concurrency slots;
- `records`: which suspended-call records were used (each is resumed once), behind a store
  interface a fleet-wide store implements too;
- `execution`: running `run` under a deadline (threads for sync code, cancellation for async);
- `streaming`: the events of streaming tools, drained under the call's deadline;
- `hooks`, `tracing`: what the host observes of each call (events, OpenTelemetry spans).

May import: `results`, `validation`, `search` (a registry holding a deferred tool adds the
search pair) and the leaf modules. Never `providers` or `serving` (they drive a registry).
"""
