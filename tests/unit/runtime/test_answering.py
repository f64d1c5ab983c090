"""runtime/serving/answering.py's bound on SSE events: a response event larger than the
client reads becomes an error result of the same id; anything else passes as it came."""

from __future__ import annotations

import json
from typing import Any

from toolgen.runtime.serving.answering import SDK_EVENT_LIMIT, bounded, event_limit


def _event(message: dict[str, Any], *, event_id: str | None = None) -> bytes:
    head = [b"event: message"] + ([f"id: {event_id}".encode()] if event_id else [])
    return b"\r\n".join([*head, b"data: " + json.dumps(message).encode()]) + b"\r\n\r\n"


def _data(event: bytes) -> dict[str, Any]:
    line = next(line for line in event.split(b"\n") if line.startswith(b"data: "))
    loaded: dict[str, Any] = json.loads(line[6:])
    return loaded


def test_a_response_over_the_limit_becomes_an_error_result_of_the_same_id() -> None:
    result = {"content": [{"type": "text", "text": "x" * 500}], "resultType": "complete"}
    big = _event({"jsonrpc": "2.0", "id": 7, "result": result}, event_id="e1")
    note = _event({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}})
    out = bounded(note + big, 400)
    first, second, rest = out.replace(b"\r\n", b"\n").split(b"\n\n")
    assert first == note.replace(b"\r\n", b"\n").split(b"\n\n")[0]  # a notification: as it was
    assert second.split(b"\n")[:2] == [b"event: message", b"id: e1"]
    answer = _data(second)
    assert answer["id"] == 7 and answer["result"]["isError"] is True
    assert answer["result"]["resultType"] == "complete"  # the fields MCP needs, kept
    assert answer["result"]["_meta"]["io.toolgen/failure"]["kind"] == "result_too_large"
    size = sum(len(line) for line in big.split(b"\r\n"))
    text = answer["result"]["content"][0]["text"]
    assert text.startswith(f"the result is {size:,} bytes, over the 400 bytes")
    assert rest == b""


def test_what_fits_and_what_is_no_result_pass_as_they_came() -> None:
    fits = _event({"jsonrpc": "2.0", "id": 1, "result": {"content": []}})
    assert bounded(fits, len(fits)) == fits.replace(b"\r\n", b"\n")
    error = _event({"jsonrpc": "2.0", "id": 2, "error": {"code": 1, "message": "m" * 500}})
    assert bounded(error, 100) == error.replace(b"\r\n", b"\n")


def test_the_limit_is_the_clients_word_else_the_sdks() -> None:
    def scope(*headers: tuple[bytes, bytes]) -> Any:
        return {"type": "http", "headers": list(headers)}

    from mcp.client.streamable_http import DEFAULT_MAX_SSE_EVENT_SIZE

    assert event_limit(scope()) == SDK_EVENT_LIMIT == DEFAULT_MAX_SSE_EVENT_SIZE  # the SDK's
    assert event_limit(scope((b"toolgen-max-event-bytes", b"10485760"))) == 10485760
    for said in (b"0", b"-5", b"ten", b""):
        assert event_limit(scope((b"toolgen-max-event-bytes", said))) == SDK_EVENT_LIMIT
