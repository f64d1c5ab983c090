"""retry-without-effect: a `retry` declaration that no failure of the tool can trigger;
cache-not-idempotent: a `cache` on a tool that is not flagged `idempotent`;
approval-without-effect: an `approval` on a tool that is not flagged `requires_approval`;
task-needs-user: `task: required` on a tool flagged `requires_approval`.

The registry calls a tool again only after a retryable failure: a declared error kind with
`retryable: true`, a timeout of a tool flagged `idempotent` or `retryable` (with a deadline:
its own `timeout_s` or the registry's), an unexpected exception of a tool flagged
`retryable`. A `retry` on a tool with none of these would silently do nothing.

A cached result answers a call without running the tool: right only when calling it again
with the same arguments gives the same result and changes nothing more, which is what
`idempotent` says. Anything else is refused.

`approval: {expires_s}` sets how long the record of a call waiting for approval may be
resumed; a tool that never waits for approval has no such record.

A task runs where no user can be asked (a worker, after its request has ended): a tool that
runs only as a task and needs approval would fail every call.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context, Rule
from toolgen.diagnostics import Diagnostic, Severity

ID = "retry-without-effect"
SUMMARY = (
    "A `retry` declaration can take effect: the tool has an error kind with `retryable: true`, or the flag "
    "`retryable` or `idempotent` (whose timeouts are retried)."
)
SEVERITY = Severity.WARNING
CACHE = "cache-not-idempotent"
APPROVAL = "approval-without-effect"
TASK = "task-needs-user"
MORE = (
    Rule(
        CACHE,
        Severity.ERROR,
        "A `cache` is declared only on a tool flagged `idempotent`: a cached result "
        "answers a call without running the tool.",
    ),
    Rule(
        APPROVAL,
        Severity.WARNING,
        "An `approval` declaration is on a tool flagged `requires_approval`: only its calls "
        "wait for approval, in records that expire.",
    ),
    Rule(
        TASK,
        Severity.ERROR,
        "A tool that runs only as a task (`task: required`) is not flagged "
        "`requires_approval`: a task cannot ask the user, so every call would fail.",
    ),
)


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        spec = tool.spec
        if spec.cache is not None and "idempotent" not in spec.flags:
            yield tool.doc.diagnostic(
                tool.at("/cache"),
                CACHE,
                f"{spec.name!r} is cached, but not flagged idempotent: a cached result would "
                "answer calls that should have run the tool",
                hint="flag it `idempotent` if calling it again changes nothing, else remove "
                "`cache`",
                key=True,
            )
        if spec.approval_expires_s is not None and "requires_approval" not in spec.flags:
            yield tool.doc.diagnostic(
                tool.at("/approval"),
                APPROVAL,
                f"{spec.name!r} declares `approval`, but is not flagged requires_approval: "
                "its calls never wait for approval, so no record expires",
                hint="flag it `requires_approval`, or remove `approval`",
                severity=Severity.WARNING,
                key=True,
            )
        if spec.task == "required" and "requires_approval" in spec.flags:
            yield tool.doc.diagnostic(
                tool.at("/task"),
                TASK,
                f"{spec.name!r} runs only as a task, but needs approval: a task cannot ask "
                "the user, so every call would fail",
                hint="make it `task: optional` (a call that needs approval then runs as a "
                "request), or remove the flag `requires_approval`",
                key=True,
            )
        if spec.retry.attempts <= 1:
            continue
        if any(e.retryable for e in spec.errors) or {"retryable", "idempotent"} & set(spec.flags):
            continue
        yield tool.doc.diagnostic(
            tool.at("/retry"),
            ID,
            f"retry declares {spec.retry.attempts} attempts, but no failure of "
            f"{spec.name!r} is retryable: the tool is always called once",
            hint="mark the error kinds that may pass with `retryable: true`, or flag the tool "
            "`retryable` (or `idempotent`, for its timeouts); else remove `retry`",
            severity=SEVERITY,
            key=True,
        )
