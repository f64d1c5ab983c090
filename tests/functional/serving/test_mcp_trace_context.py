"""The W3C trace context across the MCP boundary: the generated client sends the current
`traceparent` in the request's `_meta` (the `mcp` SDK it is built on does) and as a header,
another HTTP client may send the header alone, and the server runs the call under it, so the registry's span
(OpenTelemetryHook) is in the client's trace, a child of the client's span. Spans are read with the OpenTelemetry SDK's in-memory
exporter, server and client in this process (the server in uvicorn's thread, on its own loop)."""

from __future__ import annotations

import asyncio
import importlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.support._generated import package, spec
from tests.support.mcp_support import free_port

SAID = {"type": "object", "properties": {"said": {"type": "string"}}, "required": ["said"]}


@pytest.fixture
def traced(tmp_path: Path) -> Iterator[tuple[Any, Any, InMemorySpanExporter, Any]]:
    """A generated package with `ping`, its registry traced into an in-memory exporter, and
    the provider's tracer for the client's spans."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    with package(tmp_path, [{**spec("ping", description="Answer pong."), "returns": SAID}]) as pkg:
        ping = importlib.import_module(f"{pkg.__name__}.tools.ping")

        class Ping(ping.PingTool):  # type: ignore[name-defined]
            def run(self, arguments: Any) -> Any:
                return ping.PingResult(said="pong")

        hook = pkg.OpenTelemetryHook(provider.get_tracer("server"))
        registry = pkg.build_registry(Ping(), hooks=[hook])
        yield pkg, registry, exporter, provider.get_tracer("client")


@contextmanager
def _http(pkg: Any, registry: Any, seen: list[str] | None = None) -> Iterator[str]:
    """The registry served over streamable HTTP by uvicorn in a thread of this process (its
    own event loop: nothing of the client's context reaches it but what the request carries).
    `seen` collects the `traceparent` header of each request that has one."""
    import uvicorn

    server = importlib.import_module(f"{pkg.__name__}.server")
    served = server.http_app(server.mcp_server(registry, name="traced"))

    async def app(scope: Any, receive: Any, send: Any) -> None:
        headers = dict(scope.get("headers", []))
        if seen is not None and b"traceparent" in headers:
            seen.append(headers[b"traceparent"].decode())
        await served(scope, receive, send)

    port = free_port()
    runner = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not runner.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        runner.should_exit = True
        thread.join(timeout=30)


def _server_span(exporter: InMemorySpanExporter) -> Any:
    [span] = [s for s in exporter.get_finished_spans() if s.name == "execute_tool ping"]
    return span


def test_the_generated_client_carries_the_trace_context_in_meta(traced: Any) -> None:
    pkg, registry, exporter, tracer = traced
    client = importlib.import_module(f"{pkg.__name__}.client")

    async def scenario(url: str) -> Any:
        async with client.connect(url) as tools:
            with tracer.start_as_current_span("agent turn") as span:
                assert (await tools.ping()).said == "pong"
            await tools.ping()  # outside any span: a trace of its own
            return span.get_span_context()

    seen: list[str] = []
    with _http(pkg, registry, seen) as url:
        context = asyncio.run(scenario(url))
    first, second = [s for s in exporter.get_finished_spans() if s.name == "execute_tool ping"]
    assert first.context.trace_id == context.trace_id
    assert first.parent is not None and first.parent.is_remote
    assert first.parent.span_id == context.span_id
    assert second.context.trace_id != context.trace_id and second.parent is None
    # The same context as headers, for what stands between (only requests inside the span).
    ours = f"00-{context.trace_id:032x}-{context.span_id:016x}-"
    assert seen and all(header.startswith(ours) for header in seen), (seen, ours)


def test_a_traceparent_header_continues_into_the_call(traced: Any) -> None:
    pkg, registry, exporter, _ = traced
    trace_id, parent = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    with _http(pkg, registry) as url:
        answer = httpx2.post(
            url,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ping"}},
            headers={
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2025-11-25",
                "traceparent": f"00-{trace_id}-{parent}-01",
                "tracestate": "vendor=value",
            },
            timeout=30,
        )
    assert answer.status_code == 200, answer.text
    span = _server_span(exporter)
    assert format(span.context.trace_id, "032x") == trace_id
    assert span.parent is not None and format(span.parent.span_id, "016x") == parent
    assert span.context.trace_state.get("vendor") == "value"
