"""What the registry does around a call beyond running it: approval and suspension (signed,
resumable records), control flow that is never a failure, terminal tools, guidance and partial
data in results, deprecation, injected values from the host, hooks and OpenTelemetry spans, and
a concurrency limit. Real threads and tasks; waits are short."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.support.runtime_support import generated_package, interface

PATH = {
    "type": "object",
    "properties": {"path": {"type": "string", "description": "Which file."}},
    "required": ["path"],
}
SECONDS = {
    "type": "object",
    "properties": {"seconds": {"type": "number", "description": "How long."}},
    "required": ["seconds"],
}
SPECS = {
    "tools": [
        {
            "name": "delete_file",
            "description": "Deletes a file.",
            "flags": ["requires_approval"],
            "parameters": PATH,
            "returns": {"type": "object", "properties": {"deleted": {"type": "string"}}},
        },
        {
            "name": "rename",
            "description": "Asks the user for a new name.",
            "parameters": PATH,
            "returns": {"type": "object", "properties": {"renamed": {"type": "string"}}},
        },
        {
            "name": "finish",
            "description": "Ends the task.",
            "flags": ["terminal"],
            "parameters": {
                "type": "object",
                "properties": {"ok": {"type": "boolean", "description": "Done?"}},
                "required": ["ok"],
            },
            "errors": {"not_done": {"description": "Not finished."}},
        },
        {
            "name": "search",
            "description": "Searches, with guidance.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What."},
                    "api_key": {"type": "string", "x-secret": True, "description": "Key."},
                },
                "required": ["query"],
            },
            "returns": {"type": "object", "properties": {"hits": {"type": "integer"}}},
            "errors": {"quota": {"description": "Out of quota, part done."}},
        },
        {
            "name": "old_search",
            "description": "Searches the old way.",
            "stability": "deprecated",
            "version": "1.2",
            "parameters": PATH,
        },
        {
            "name": "whoami",
            "description": "Says who the user is.",
            "parameters": {"type": "object"},
            "injected": {"user": {"type": "string"}, "token": {"type": "string", "x-secret": True}},
            "returns": {"type": "object", "properties": {"user": {"type": "string"}}},
        },
        {
            "name": "unlock",
            "description": "Unlocks a door with a code.",
            "flags": ["requires_approval"],
            "parameters": {
                "type": "object",
                "properties": {
                    "door": {"type": "string", "description": "Which door."},
                    "code": {"type": "string", "x-secret": True, "description": "The code."},
                    "pins": {
                        "type": "array",
                        "items": {"type": "integer", "x-secret": True},
                        "description": "Spare pins.",
                    },
                },
                "required": ["door", "code"],
            },
            "returns": {"type": "object", "properties": {"opened": {"type": "string"}}},
        },
        {
            "name": "hold",
            "description": "Sleeps, beside others.",
            "flags": ["parallel"],
            "parameters": SECONDS,
        },
    ]
}


SECRET = "a key of 16 bytes or more"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "control", SPECS)


@pytest.fixture(params=["call", "acall"])
def calling(request: pytest.FixtureRequest) -> Any:
    """`registry.call`, or `registry.acall` run to completion: each test holds for both."""

    def call(registry: Any, name: str, arguments: Any, **options: Any) -> Any:
        if request.param == "call":
            return registry.call(name, arguments, **options)
        return asyncio.run(registry.acall(name, arguments, **options))

    return call


class Tools:
    """One implementation of each tool, counting its runs."""

    def __init__(self, package: ModuleType) -> None:
        self.runs: list[str] = []
        self.running = 0
        self.peak = 0
        self.lock = threading.Lock()
        self.package = package

    def all(self) -> list[Any]:
        return [self.make(name) for name in (t["name"] for t in SPECS["tools"])]

    def make(self, name: str) -> Any:
        tools, package = self, self.package
        base = interface(package, name)

        class Impl(base):  # type: ignore[misc, valid-type]
            def run(self, arguments: Any, *injected: Any) -> Any:
                tools.runs.append(name)
                return getattr(tools, name)(arguments, *injected)

        return Impl()

    def delete_file(self, arguments: Any) -> Any:
        return {"deleted": arguments.path}

    def rename(self, arguments: Any) -> Any:
        answer = self.package.resumed()
        try:
            if answer is None:
                raise self.package.Suspend(f"New name for {arguments.path}?", state={"asked": 1})
        except Exception:  # an implementation's broad handler does not swallow the suspension
            raise AssertionError("Suspend was caught as an Exception") from None
        return {"renamed": f"{arguments.path}->{answer.answer} (asked {answer.state['asked']})"}

    def finish(self, arguments: Any) -> Any:
        if not arguments.ok:
            raise self.package.ToolError("not_done", "keep going")
        return {}

    def search(self, arguments: Any) -> Any:
        if arguments.query == "partial":
            raise self.package.ToolError(
                "quota",
                f"quota hit for key {arguments.api_key}",
                partial_data={"hits": 3, "key": arguments.api_key},
            )
        return self.package.Output(
            {"hits": 7}, metadata="Only the first page: ask for more if needed."
        )

    def old_search(self, arguments: Any) -> Any:
        return {}

    def whoami(self, arguments: Any, injected: Any) -> Any:
        if injected.user == "asked":
            raise self.package.Suspend(f"Confirm token {injected.token}?")
        return self.package.Output(
            {"user": injected.user}, metadata=f"signed in with {injected.token}"
        )

    def unlock(self, arguments: Any) -> Any:
        return {"opened": f"{arguments.door} with {arguments.code} {arguments.pins}"}

    def hold(self, arguments: Any) -> Any:
        with self.lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        time.sleep(arguments.seconds)
        with self.lock:
            self.running -= 1
        return {}


def test_a_call_needing_approval_waits_as_a_signed_record_and_runs_once_approved(
    package: ModuleType,
) -> None:
    tools = Tools(package)
    registry = package.Registry(tools.all(), secret=SECRET)
    waiting = registry.call("delete_file", {"path": "a.txt"})
    assert not waiting.ok and waiting.failure.kind == "suspended" and tools.runs == []
    assert "needs the user's approval" in waiting.text()
    stored = json.loads(json.dumps(waiting.suspended.to_json()))  # what a host keeps, anywhere
    assert stored["tool"] == "delete_file" and stored["arguments"] == {"path": "a.txt"}
    assert "a.txt" in stored["prompt"]
    # Another process with the same secret resumes it; the tool runs once, then.
    elsewhere = package.Registry(Tools(package).all(), secret=SECRET)
    done = elsewhere.resume(stored, approved=True)
    assert done.ok and done.data() == {"deleted": "a.txt"}
    refused = registry.resume(stored, approved=False, reason="keep it")
    assert (
        refused.failure.kind == "rejected"
        and "keep it" in refused.failure.message
        and tools.runs == []
    )


def test_a_changed_or_foreign_record_is_refused(package: ModuleType) -> None:
    registry = package.Registry(Tools(package).all(), secret=SECRET)
    stored = registry.call("delete_file", {"path": "a.txt"}).suspended.to_json()
    with pytest.raises(package.SuspensionError, match="signature does not match"):
        registry.resume({**stored, "arguments": {"path": "/etc/passwd"}}, approved=True)
    with pytest.raises(package.SuspensionError):
        package.Registry(Tools(package).all(), secret="another secret, as long").resume(
            stored, approved=True
        )
    with pytest.raises(package.SuspensionError, match="not a suspended call record"):
        registry.resume({"tool": "delete_file"}, approved=True)
    with pytest.raises(TypeError, match="approved=True or approved=False"):
        registry.resume(stored, answer="yes")


def test_an_approver_decides_inline_sync_and_async(package: ModuleType) -> None:
    tools = Tools(package)
    asked: list[Any] = []

    def approve(request: Any) -> Any:
        asked.append(request)
        return True if request.arguments["path"] == "ok.txt" else "not that one"

    registry = package.Registry(tools.all(), approve=approve)
    assert registry.call("delete_file", {"path": "ok.txt"}).data() == {"deleted": "ok.txt"}
    no = registry.call("delete_file", {"path": "no.txt"})
    assert no.failure.kind == "rejected" and "not that one" in no.failure.message
    assert [r.tool for r in asked] == ["delete_file", "delete_file"] and tools.runs == [
        "delete_file"
    ]

    async def approve_later(request: Any) -> bool:
        await asyncio.sleep(0)
        return False

    later = package.Registry(tools.all(), approve=approve_later)
    assert asyncio.run(later.acall("delete_file", {"path": "ok.txt"})).failure.kind == "rejected"
    assert (
        later.call("delete_file", {"path": "ok.txt"}).failure.kind == "rejected"
    )  # awaited from sync too


def test_a_tool_asks_the_user_and_is_resumed_with_the_answer(package: ModuleType) -> None:
    tools = Tools(package)
    registry = package.Registry(tools.all())
    asked = registry.call("rename", {"path": "a.txt"})
    assert asked.failure.kind == "suspended" and asked.suspended.prompt == "New name for a.txt?"
    assert "waiting for the user's answer to: New name for a.txt?" in asked.text()
    done = registry.resume(asked.suspended, answer="b.txt")
    assert done.data() == {"renamed": "a.txt->b.txt (asked 1)"}
    again = registry.call("rename", {"path": "a.txt"}).suspended
    assert asyncio.run(registry.aresume(again.to_json(), answer="c.txt")).ok
    assert package.resumed() is None  # only inside the resumed call
    with pytest.raises(TypeError, match="answer"):
        registry.resume(asked.suspended, approved=True)


def test_cancellation_is_no_failure_and_a_tools_exit_is_its_own(package: ModuleType) -> None:
    tools = Tools(package)
    events: list[Any] = []

    class Log:
        def error(self, event: Any) -> None:
            events.append(event)

    registry = package.Registry(tools.all(), hooks=[Log()])

    async def turn() -> None:
        task = asyncio.ensure_future(registry.acall("hold", {"seconds": 5}))
        await asyncio.sleep(0.05)
        task.cancel()
        await task

    started = time.monotonic()
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(turn())
    assert time.monotonic() - started < 2
    assert [e.result.failure.kind for e in events] == ["cancelled"]

    # A sync tool's sys.exit() or KeyboardInterrupt fails its call only, as an async one's does.
    for raised in (SystemExit(3), KeyboardInterrupt()):
        exiting = tools.make("finish")
        exiting.run = lambda arguments, raised=raised: (_ for _ in ()).throw(raised)
        result = package.Registry([exiting]).call("finish", {"ok": True})
        assert result.failure is not None and result.failure.kind == "internal", raised
        assert result.exception is raised


def test_terminal_results_guidance_and_partial_data(package: ModuleType, calling: Any) -> None:
    registry = package.Registry(Tools(package).all())
    assert calling(registry, "finish", {"ok": True}).terminal
    assert not calling(
        registry, "finish", {"ok": False}
    ).terminal  # only an ok result ends the turn
    assert not calling(registry, "search", {"query": "x"}).terminal
    guided = calling(registry, "search", {"query": "x"})
    assert guided.metadata == "Only the first page: ask for more if needed."
    assert guided.text() == '{"hits":7}\n\nOnly the first page: ask for more if needed.'
    assert guided.to_dict() == {"ok": True, "result": {"hits": 7}, "metadata": guided.metadata}
    partial = calling(registry, "search", {"query": "partial", "api_key": "sk-12345678"})
    assert partial.failure.kind == "quota" and partial.failure.partial_data == {
        "hits": 3,
        "key": "<secret>",
    }
    assert "sk-12345678" not in partial.text() and "Done before the failure" in partial.text()
    assert partial.to_dict()["error"]["partial_data"]["hits"] == 3


def test_timing_is_on_every_result(package: ModuleType, calling: Any) -> None:
    registry = package.Registry(Tools(package).all())
    slept = calling(registry, "hold", {"seconds": 0.05})
    assert 0.05 <= slept.duration_s < 1
    assert 0 < calling(registry, "finish", {"ok": False}).duration_s < 1


@pytest.mark.parametrize(
    "provider", ["openai", "openai-responses", "anthropic", "gemini", "mcp", "bedrock"]
)
def test_a_deprecated_tool_is_marked_for_the_model_and_warns_the_host(
    package: ModuleType, provider: str, calling: Any
) -> None:
    registry = package.Registry(Tools(package).all())
    info = registry.info("old_search")
    assert (info.stability, info.version) == ("deprecated", "1.2")
    [definition] = [
        d for d in registry.definitions(provider) if "Searches the old way." in json.dumps(d)
    ]
    assert (
        "Deprecated: prefer another tool where one does the job. Searches the old way."
        in json.dumps(definition)
    )
    others = [d for d in registry.definitions(provider) if d != definition]
    assert not any("Deprecated:" in json.dumps(d) for d in others)
    result = calling(registry, "old_search", {"path": "a"})
    assert result.ok and result.warnings == (
        "tool 'old_search' (version 1.2) is deprecated: its spec says it will be removed",
    )
    assert calling(registry, "search", {"query": "x"}).warnings == ()


def test_injected_values_come_from_the_hosts_injector(package: ModuleType, calling: Any) -> None:
    seen: list[str] = []

    def inject(tool: str) -> dict[str, str]:
        seen.append(tool)
        return {"user": "ada", "token": "t0ken-value"}

    registry = package.Registry(Tools(package).all(), inject=inject)
    assert calling(registry, "whoami", {}).data() == {"user": "ada"}
    assert calling(registry, "whoami", {}, injected={"user": "bob"}).data() == {
        "user": "bob"
    }  # the call's win
    calling(registry, "search", {"query": "x"})
    assert seen == ["whoami", "whoami"]  # asked only for tools that take injected values
    # Guidance and questions a tool writes never carry an injected value to the model.
    assert calling(registry, "whoami", {}).metadata == "signed in with <secret>"
    asked = calling(registry, "whoami", {}, injected={"user": "asked"})
    assert asked.suspended.prompt == "Confirm token <secret>?" and "t0ken" not in asked.text()
    assert package.Registry(Tools(package).all()).call("whoami", {}).failure.kind == "internal"


def test_hooks_see_each_call_with_secrets_redacted(package: ModuleType, calling: Any) -> None:
    events: list[tuple[str, Any]] = []

    class Log:
        def before(self, event: Any) -> None:
            events.append(("before", event))

        def after(self, event: Any) -> None:
            events.append(("after", event))

        def error(self, event: Any) -> None:
            events.append(("error", event))

    registry = package.Registry(Tools(package).all(), hooks=[Log()])
    calling(registry, "search", {"query": "x", "api_key": "sk-12345678"})
    calling(registry, "finish", {"ok": False})
    calling(registry, "nope", {})
    calling(registry, "search", {"quary": "x"})
    phases = [(p, e.tool) for p, e in events]
    assert phases == [
        ("before", "search"),
        ("after", "search"),
        ("before", "finish"),
        ("error", "finish"),
        ("error", "nope"),
        ("error", "search"),
    ]
    before, after = events[0][1], events[1][1]
    assert before.call_id == after.call_id and before.result is None
    assert before.arguments == {"query": "x", "api_key": "<secret>"}
    assert after.result.ok and after.duration_s is not None and after.duration_s >= 0
    assert events[4][1].arguments is None and events[4][1].result.failure.kind == "unknown_tool"
    assert "sk-12345678" not in repr(events)
    with pytest.raises(TypeError, match="not a hook"):
        package.Registry([], hooks=[object()])


def test_opentelemetry_spans_follow_the_genai_conventions(package: ModuleType) -> None:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import StatusCode

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    hook = package.OpenTelemetryHook(provider.get_tracer("test"))
    registry = package.Registry(Tools(package).all(), hooks=[hook])
    registry.call("search", {"query": "x"})
    registry.call("finish", {"ok": False})
    asyncio.run(registry.acall("hold", {"seconds": 0}))
    spans = exporter.get_finished_spans()
    assert [s.name for s in spans] == [
        "execute_tool search",
        "execute_tool finish",
        "execute_tool hold",
    ]
    assert spans[0].attributes["gen_ai.operation.name"] == "execute_tool"
    assert (
        spans[0].attributes["gen_ai.tool.name"] == "search"
        and spans[0].status.status_code != StatusCode.ERROR
    )
    assert (
        spans[1].status.status_code == StatusCode.ERROR
        and spans[1].attributes["error.type"] == "not_done"
    )
    assert hook._spans == {}  # none left open


def test_max_concurrency_holds_for_tasks_and_for_threads(package: ModuleType) -> None:
    tools = Tools(package)
    registry = package.Registry(tools.all(), max_concurrency=2)

    async def turn() -> None:
        await asyncio.gather(*(registry.acall("hold", {"seconds": 0.1}) for _ in range(5)))

    asyncio.run(turn())
    assert tools.peak == 2 and tools.runs.count("hold") == 5
    tools.peak = 0
    threads = [
        threading.Thread(target=registry.call, args=("hold", {"seconds": 0.1})) for _ in range(5)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert tools.peak == 2
    unlimited = Tools(package)
    free = package.Registry(unlimited.all())

    async def free_turn() -> None:
        await asyncio.gather(*(free.acall("hold", {"seconds": 0.1}) for _ in range(5)))

    asyncio.run(free_turn())
    assert unlimited.peak == 5
    with pytest.raises(ValueError, match="max_concurrency"):
        package.Registry([], max_concurrency=0)


class WallClock:
    """A registry clock whose wall time (`time`, the expiry of records) the test moves."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    async def asleep(self, seconds: float) -> None:
        self.now += seconds


def test_a_record_is_resumed_once_rejected_or_approved(package: ModuleType) -> None:
    tools = Tools(package)
    registry = package.Registry(tools.all(), secret=SECRET)
    stored = registry.call("delete_file", {"path": "a.txt"}).suspended.to_json()
    assert registry.resume(stored, approved=True).ok and tools.runs == ["delete_file"]
    for again in (
        lambda: registry.resume(stored, approved=True),
        lambda: asyncio.run(registry.aresume(stored, approved=True)),
        lambda: registry.copy().resume(stored, approved=True),  # derived registries share
        lambda: registry.without("rename").resume(stored, approved=False),
    ):
        with pytest.raises(package.SuspensionError, match="already used"):
            again()
    # A rejected record is used too: approving it later runs nothing.
    rejected = registry.call("delete_file", {"path": "b.txt"}).suspended
    assert registry.resume(rejected, approved=False).failure.kind == "rejected"
    with pytest.raises(package.SuspensionError, match="already used"):
        registry.resume(rejected.to_json(), approved=True)
    # A question answered once is not answered again; a mistaken resume uses nothing.
    asked = registry.call("rename", {"path": "c.txt"}).suspended
    with pytest.raises(TypeError):
        registry.resume(asked, approved=True)
    assert registry.resume(asked, answer="d.txt").ok
    with pytest.raises(package.SuspensionError, match="already used"):
        registry.resume(asked, answer="e.txt")
    # The record an inline approver was given is used by its decision.
    given: list[Any] = []
    inline = package.Registry(tools.all(), approve=lambda r: given.append(r) or True)
    assert inline.call("delete_file", {"path": "f.txt"}).ok
    with pytest.raises(package.SuspensionError, match="already used"):
        inline.resume(given[0], approved=True)
    assert tools.runs == ["delete_file", "rename", "rename", "delete_file"]


def test_concurrent_resumes_of_one_record_run_the_tool_once(package: ModuleType) -> None:
    tools = Tools(package)
    registry = package.Registry(tools.all(), secret=SECRET)
    stored = registry.call("delete_file", {"path": "a.txt"}).suspended.to_json()
    start = threading.Barrier(10)
    outcomes: list[Any] = []

    def resume() -> None:
        start.wait()
        try:
            outcomes.append(registry.resume(stored, approved=True))
        except package.SuspensionError as refused:
            outcomes.append(refused)

    threads = [threading.Thread(target=resume) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ran = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(outcomes) == 10 and len(ran) == 1 and ran[0].ok
    assert all("already used" in str(o) for o in outcomes if isinstance(o, Exception))
    assert tools.runs == ["delete_file"]

    stored = registry.call("delete_file", {"path": "b.txt"}).suspended.to_json()

    async def together() -> list[Any]:
        return await asyncio.gather(
            *(registry.aresume(stored, approved=True) for _ in range(10)), return_exceptions=True
        )

    outcomes = asyncio.run(together())
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    assert all(
        isinstance(o, package.SuspensionError) and "already used" in str(o)
        for o in outcomes
        if isinstance(o, Exception)
    )
    assert tools.runs == ["delete_file", "delete_file"]


def test_a_record_expires_and_says_when(package: ModuleType) -> None:
    tools = Tools(package)
    clock = WallClock(1_800_000_000.0)  # 2027-01-15T08:00:00Z
    default = package.Registry(tools.all(), secret=SECRET, clock=clock)
    record = default.call("delete_file", {"path": "a.txt"}).suspended
    assert record.expires_at == clock.now + 24 * 3600  # a day, unless told
    short = package.Registry(tools.all(), secret=SECRET, clock=clock, record_ttl_s=60)
    stored = short.call("delete_file", {"path": "a.txt"}).suspended.to_json()
    clock.now += 60
    with pytest.raises(package.SuspensionError, match="expired at 2027-01-15T08:01:00"):
        short.resume(stored, approved=True)
    clock.now += 24 * 3600 - 61  # the day-long record: one second left
    assert default.resume(record, approved=True).ok and tools.runs == ["delete_file"]
    # A later expiry written into the record breaks its signature.
    with pytest.raises(package.SuspensionError, match="signature does not match"):
        short.resume({**stored, "expires_at": clock.now + 3600}, approved=True)
    for wrong in (0, -1, "soon"):
        with pytest.raises(ValueError, match="record_ttl_s"):
            package.Registry([], record_ttl_s=wrong)


def test_a_blank_or_short_secret_is_refused(
    package: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    for weak in ("", "   \t\n", "short", "fifteen bytes!!", b"", b" " * 32):
        with pytest.raises(ValueError, match="at least 16 bytes"):
            package.Registry([], secret=weak)
    assert len(package.Registry([], secret=b"sixteen bytes!!!")) == 0
    for weak in ("", "  ", "short"):
        monkeypatch.setenv("TOOLGEN_SECRET", weak)
        with pytest.raises(ValueError, match=r"\$TOOLGEN_SECRET .*at least 16 bytes"):
            package.Registry([])
    monkeypatch.setenv("TOOLGEN_SECRET", SECRET)
    made = package.Registry(Tools(package).all()).call("delete_file", {"path": "a"}).suspended
    assert package.Registry(Tools(package).all(), secret=SECRET).resume(made, approved=True).ok
    monkeypatch.delenv("TOOLGEN_SECRET")
    assert len(package.Registry([])) == 0  # unset: a random key, for this process


def test_a_malformed_record_is_refused_as_tampered_never_a_traceback(package: ModuleType) -> None:
    registry = package.Registry(Tools(package).all(), secret=SECRET)
    stored = registry.call("delete_file", {"path": "a.txt"}).suspended.to_json()
    malformed = [
        {"signature": "é" * 64},  # not ASCII: compare_digest raised TypeError
        {"signature": stored["signature"].upper()},
        {"signature": None},
        {"signature": 7},
        {"arguments": {"path": {1, 2}}},  # no JSON
        {"arguments": {1: "a", "b": 2}},  # keys that do not sort
        {"tool": None},
        {"reason": "other"},
        {"prompt": ["a list"]},
        {"id": 5},
        {"expires_at": "tomorrow"},
        {"expires_at": float("inf")},
        {"sealed": "%%%"},
        {"state": "\ud800"},  # a lone surrogate: no UTF-8
    ]
    for change in malformed:
        for resume in (
            lambda r: registry.resume(r, approved=True),
            lambda r: asyncio.run(registry.aresume(r, approved=True)),
        ):
            with pytest.raises(package.SuspensionError, match="signature does not match"):
                resume({**stored, **change})
    with pytest.raises(package.SuspensionError, match="not a suspended call record"):
        registry.resume({**stored, 5: "a key that is no name"}, approved=True)
    assert registry.resume(stored, approved=True).ok  # none of them used the record


def test_secret_arguments_never_leave_in_a_prompt_or_a_record(package: ModuleType) -> None:
    tools = Tools(package)
    asked: list[Any] = []
    arguments = {"door": "front", "code": "hunter2-ZX", "pins": [4711, 9]}
    waiting = package.Registry(tools.all(), secret=SECRET).call("unlock", arguments)
    record = waiting.suspended
    text = json.dumps(record.to_json(), ensure_ascii=False)
    for value in ("hunter2-ZX", "4711"):
        assert value not in text and value not in record.prompt
        assert value not in str(record.arguments) and value not in waiting.text()
    assert record.arguments == {"door": "front", "code": "<secret>", "pins": ["<secret>"] * 2}
    assert "front" in record.prompt and "<secret>" in record.prompt
    # Resumed (here or in another process with the secret): the tool gets the real values.
    elsewhere = package.Registry(tools.all(), secret=SECRET)
    done = elsewhere.resume(json.loads(text), approved=True)
    assert done.data() == {"opened": "front with hunter2-ZX [4711, 9]"}
    with pytest.raises(package.SuspensionError):
        package.Registry(tools.all(), secret="another secret, as long").resume(
            json.loads(text), approved=True
        )
    # An inline approver is shown the same.
    inline = package.Registry(tools.all(), approve=lambda r: asked.append(r) or True)
    assert inline.call("unlock", arguments).ok
    assert "hunter2" not in asked[0].prompt and "hunter2" not in json.dumps(asked[0].to_json())
    # A short secret value is hidden too; a call without one seals nothing.
    short = package.Registry(tools.all()).call("unlock", {"door": "back", "code": "x"}).suspended
    assert short.arguments == {"door": "back", "code": "<secret>"} and short.sealed
    assert package.Registry(tools.all()).call("delete_file", {"path": "a"}).suspended.sealed == ""


def test_registries_given_one_store_refuse_what_another_resumed(package: ModuleType) -> None:
    """The store interface a fleet-wide store implements: `consume` may be async, and two
    registries (two workers) sharing one store use each record once between them."""

    class AsyncStore:
        def __init__(self) -> None:
            self.used: dict[str, float] = {}

        async def consume(self, record_id: str, expires_at: float) -> bool:
            await asyncio.sleep(0)
            if record_id in self.used:
                return False
            self.used[record_id] = expires_at
            return True

    tools = Tools(package)
    store = AsyncStore()
    one = package.Registry(tools.all(), secret=SECRET, records=store)
    two = package.Registry(tools.all(), secret=SECRET, records=store)
    stored = one.call("delete_file", {"path": "a.txt"}).suspended.to_json()
    assert two.resume(stored, approved=True).ok  # a sync resume runs the awaitable through
    with pytest.raises(package.SuspensionError, match="already used"):
        asyncio.run(one.aresume(stored, approved=True))
    assert list(store.used) == [stored["id"]] and store.used[stored["id"]] == stored["expires_at"]
    # Without a shared store, each registry knows only what it resumed.
    alone = package.Registry(tools.all(), secret=SECRET)
    assert alone.resume(stored, approved=True).ok and tools.runs == ["delete_file"] * 2
