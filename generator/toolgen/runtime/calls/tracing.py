# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""An OpenTelemetry span for each tool call: a hook (hooks.py) for `Registry(hooks=[...])`.

Spans follow OpenTelemetry's semantic conventions for generative AI: the name
`execute_tool <tool>`, `gen_ai.operation.name` "execute_tool", `gen_ai.tool.name`,
`gen_ai.tool.call.id`; a failed call sets the span's status to error and `error.type` to the
failure's kind. Arguments and results are not recorded (they may be large or personal).
Each guard of the call (guards.py) is an event `toolgen.guard` on its span: the guard's
name, stage and action (`passed`, `refused`, `withheld`, `redacted`, ...) and the host's
reason; a refused or withheld call's `error.type` is `refused` or `withheld`.

The W3C trace context crosses the MCP boundary. The `mcp` SDK carries it in each request's
`_meta` (its client puts the caller's `traceparent` and `tracestate` there, its server runs
the request under them); a request over HTTP that carries them as headers instead runs under
them too (`continued`, which serving/transports.py applies), so a call's span is in the
client's trace, below the client's span. The generated client sends them as headers too
(`carried`, serving/remote.py), for the proxies and gateways on the way. It uses OpenTelemetry's W3C propagator when it is
installed, and does nothing otherwise.

OpenTelemetry is imported when an `OpenTelemetryHook` is made or a trace context crosses,
never otherwise: a package that does not use it does not need it installed and pays nothing
for it.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Iterator, Mapping
from typing import Any

from .hooks import CallEvent

# The W3C trace context's keys, in `_meta` and as HTTP headers.
TRACEPARENT, TRACESTATE = "traceparent", "tracestate"
CARRIED = frozenset({TRACEPARENT, TRACESTATE})


@functools.cache
def _propagation() -> tuple[Any, Any] | None:
    """OpenTelemetry's context API and its W3C propagator, or None where it is not installed."""
    try:
        from opentelemetry import context
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
    except ImportError:
        return None
    return context, TraceContextTextMapPropagator()


@contextlib.contextmanager
def continued(carrier: Mapping[str, Any]) -> Iterator[None]:
    """Run what is inside under the trace context `carrier` holds (its `traceparent`), where
    there is one and OpenTelemetry is installed; else as it is."""
    parent = carrier.get(TRACEPARENT)
    found = _propagation() if isinstance(parent, str) else None
    if found is None:
        yield
        return
    context, propagator = found
    text = {k: carrier[k] for k in CARRIED if isinstance(carrier.get(k), str)}
    token = context.attach(propagator.extract(text))
    try:
        yield
    finally:
        context.detach(token)


def carried() -> dict[str, str]:
    """The current trace context as W3C keys (`traceparent`, `tracestate`): none where there
    is none, or OpenTelemetry is not installed."""
    found = _propagation()
    carrier: dict[str, str] = {}
    if found is not None:
        found[1].inject(carrier)
    return carrier


class OpenTelemetryHook:
    """Spans on `tracer` (default: the global tracer provider's tracer for this package)."""

    def __init__(self, tracer: Any = None) -> None:
        try:
            from opentelemetry import trace
        except ImportError as exc:
            raise ImportError(
                "OpenTelemetryHook needs opentelemetry-api: pip install opentelemetry-api "
                "(and an SDK or exporter to send the spans somewhere)"
            ) from exc
        self._trace = trace
        self.tracer = tracer if tracer is not None else trace.get_tracer(__name__)
        self._spans: dict[int, Any] = {}
        self._lock = threading.Lock()

    def before(self, event: CallEvent) -> None:
        span = self.tracer.start_span(
            f"execute_tool {event.tool}",
            kind=self._trace.SpanKind.INTERNAL,
            attributes={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": event.tool,
                "gen_ai.tool.call.id": str(event.call_id),
                "gen_ai.tool.type": "function",
            },
        )
        with self._lock:
            self._spans[event.call_id] = span

    def after(self, event: CallEvent) -> None:
        span = self._span(event)
        if span is not None:
            self._end(span, event)

    def error(self, event: CallEvent) -> None:
        span = self._span(event)
        if span is None:  # refused before it started: a span of its own
            span = self.tracer.start_span(
                f"execute_tool {event.tool}",
                attributes={
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": event.tool,
                },
            )
        failure = event.result.failure if event.result is not None else None
        if failure is not None:
            span.set_attribute("error.type", failure.kind)
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, failure.kind))
        self._end(span, event)

    def _span(self, event: CallEvent) -> Any:
        with self._lock:
            return self._spans.pop(event.call_id, None)

    def _end(self, span: Any, event: CallEvent) -> None:
        if event.result is not None and event.result.attempts > 1:
            span.set_attribute("toolgen.attempts", event.result.attempts)
        for note in event.result.guards if event.result is not None else ():
            attributes = {
                "toolgen.guard.name": note.guard,
                "toolgen.guard.stage": note.stage,
                "toolgen.guard.action": note.action,
            }
            if note.reason is not None:
                attributes["toolgen.guard.reason"] = note.reason
            span.add_event("toolgen.guard", attributes=attributes)
        span.end()
