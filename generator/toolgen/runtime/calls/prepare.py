# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A call prepared: the tool resolved, its arguments validated (or repaired as the spec
allows), its injected values read; or the result that ends it before any run.

`Preparer` is the part of a `Registry` (registry.py) that reads a call: `_prepare` answers a
`Prepared` call, or a `ToolResult` when the call cannot run (an unknown tool, invalid
arguments, injected values the host did not supply). Glued calls (`get_weatherget_time` with
two JSON values) are cut into their parts here too (`split_call`). dispatch.py runs what is
prepared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from time import perf_counter
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import ValidationError

from ..errors import ToolArgumentsError, UnknownToolError, injected_values, short
from ..results.outcome import raised_as
from ..results.result import ToolFailure, ToolInfo, ToolResult
from ..validation import payload
from ..validation.validate import closest_example, validate

if TYPE_CHECKING:
    from ..validation.repair import Repair

Injector = Callable[[str], Mapping[str, Any]]  # tool name -> injected values for this call


class Prepared(NamedTuple):
    """A call ready to run: the implementation, what its spec says, the validated arguments,
    the injected values (none, or the one injected model) and the notes for its result (the
    warnings for the host, and the Repair records of repaired argument text)."""

    impl: Any
    info: ToolInfo
    args: Any
    extra: tuple[Any, ...]
    notes: tuple[Any, ...]


# A Prepared made as NamedTuple's own __new__ makes it, without that function's call: the
# call path makes one per call (benchmarks/dispatch.py).
_made = tuple.__new__


class Preparer:
    """Reads a call for the registry whose tables it is given (registry.py fills them)."""

    _tools: dict[str, Any]
    _infos: dict[str, ToolInfo]
    _aliases: dict[str, str]
    _direct: dict[str, ToolInfo | None]
    _forwards: frozenset[str]
    inject: Injector | None
    examples_in_errors: bool

    if TYPE_CHECKING:  # the registry's own (registry.py)

        def resolve(self, name: str) -> str: ...

        def forwarded(self, name: str, arguments: Any) -> tuple[str, Any]: ...

        def __contains__(self, name: object) -> bool: ...

    def _prepare(
        self, name: str, arguments: Any, injected: Mapping[str, Any] | None
    ) -> Prepared | ToolResult:
        # The host's mistake raises TypeError; no model can fix it. (A name that is not a
        # string is an unknown tool: resolve.)
        injected_values(injected)
        impl = self._tools.get(name) if type(name) is str else None
        if impl is not None:
            canonical = name  # most calls: a canonical name, no lookup beyond this
        else:
            try:
                canonical = self.resolve(name)
            except UnknownToolError as exc:
                shown = short(name) if type(name) is str else ""
                return ToolResult(
                    shown, failure=ToolFailure("unknown_tool", str(exc)), exception=exc
                )
            impl = self._tools[canonical]
        if self._forwards and canonical in self._forwards:  # call_tool: the call it names
            target, inner = self.forwarded(canonical, arguments)
            if target != canonical:
                return self._prepare(target, inner, injected)
        info = self._direct[canonical]
        notes: tuple[str, ...] = ()
        try:
            if info is not None:  # most tools: one call less on every call
                args = validate(info.arguments, canonical, arguments, info.secrets)
            else:  # warnings to collect, or another generated package's tool (its own runtime)
                info = self._infos[canonical]
                args, notes = _validated(info, arguments)
        except Exception as exc:  # noqa: BLE001 - the ToolArgumentsError of the tool's own runtime
            if not raised_as(exc, ToolArgumentsError):
                raise
            return self._rejected(canonical, arguments, injected, exc)
        extra: tuple[Any, ...] = ()
        if info.injected is not None:
            values = dict(self.inject(canonical)) if self.inject is not None else {}
            values.update(injected or {})
            try:
                extra = (info.injected.model_validate(values),)
            except ValidationError as exc:  # the host's mistake: never echo injected values
                missing = sorted({str(e["loc"][0]) for e in exc.errors() if e["loc"]})
                message = f"the host did not supply valid injected values for: {', '.join(missing)}"
                return ToolResult(canonical, failure=ToolFailure("internal", message))
        return _made(Prepared, (impl, info, args, extra, notes))

    def _rejected(
        self, name: str, arguments: Any, injected: Mapping[str, Any] | None, exc: BaseException
    ) -> Prepared | ToolResult:
        """What a call whose arguments were refused (`exc`) comes to: the call with its text
        repaired, as the spec allows, or its refusal."""
        info = self._infos[name]
        if getattr(info, "repair", None) and _not_json(exc, arguments):
            repaired = self._repaired(name, info, arguments, injected)
            if repaired is not None:
                return repaired
        return self._refused(name, info, arguments, exc)

    def _repaired(
        self, name: str, info: ToolInfo, text: str | bytes | bytearray, injected: Any
    ) -> Prepared | ToolResult | None:
        """The call prepared with its text repaired as the spec allows (repair.py) and its
        repairs noted; None when the text cannot be repaired or its value is not valid."""
        from ..validation import repair  # loaded by the first call that needs a repair

        found = repair.repair(text, info.repair)
        # Arguments are an object: any other value (`null` read as no arguments, a string read
        # as text again) would be read as something the text does not say.
        if found is None or not found[1] or type(found[0]) is not dict:
            return None
        value, made = found
        prepared = self._prepare(name, value, injected)
        if isinstance(prepared, ToolResult) and prepared.failure is not None:
            if prepared.failure.kind == "invalid_arguments":
                return None
        return _with_repairs(name, prepared, made)

    def _refused(self, name: str, info: ToolInfo, arguments: Any, exc: BaseException) -> ToolResult:
        """The failure of a call whose arguments were refused: the error's message, ending with
        the closest example of a valid call (`examples_in_errors`) when the spec has one."""
        examples = getattr(info, "examples", ()) if self.examples_in_errors else ()
        with_example = getattr(exc, "with_example", None)
        if examples and with_example is not None:
            try:
                secrets: frozenset[str] = getattr(info, "secrets", frozenset())
                line = closest_example(info.arguments, examples, arguments, secrets)
            except Exception:  # noqa: BLE001 - a bug in explaining must not become the host's crash
                line = None
            if line is not None:
                exc = with_example(line)
        return ToolResult(name, failure=ToolFailure("invalid_arguments", str(exc)), exception=exc)

    # Glued calls: `get_weatherget_time` with `{"city": "Paris"}{"tz": "UTC"}`.
    def split_call(self, name: str, arguments: Any) -> list[tuple[str, str]] | None:
        """A call glued from several, as its parts: (canonical tool name, that call's JSON
        text), in order. Only for a name no tool has that is one exact concatenation of tool
        names (canonical or provider-safe; any other way to cut it is ambiguous: None), with
        argument text that is exactly as many JSON values back to back, and only when every
        part's tool allows it (`x-repair` with `split`); else None. For hosts that dispatch
        calls themselves; `call_split` runs them."""
        if type(name) is not str or name in self:
            return None
        if not isinstance(arguments, (str, bytes, bytearray)):
            return None
        if payload.check(arguments, payload.LIMITS) is not None:
            return None
        from ..validation import glued

        parts = glued.split(name, arguments, [*self._tools, *self._aliases])
        if parts is None:
            return None
        found = [(self.resolve(part), text) for part, text in parts]
        if any("split" not in getattr(self._infos[p], "repair", ()) for p, _ in found):
            return None
        return found

    def _parts(
        self, name: str, arguments: Any, injected: Mapping[str, Any] | None
    ) -> Iterator[tuple[Prepared | ToolResult, float]] | None:
        """Each part of a glued call prepared (when its turn comes), with the time it started."""
        parts = self.split_call(name, arguments)
        if parts is None:
            return None
        names = [part for part, _ in parts]
        from ..validation.glued import split_message
        from ..validation.repair import Repair

        def prepared() -> Iterator[tuple[Prepared | ToolResult, float]]:
            for i, (part, text) in enumerate(parts):
                started = perf_counter()
                made = (Repair("split", split_message(name, names, i)),)
                yield _with_repairs(part, self._prepare(part, text, injected), made), started

        return prepared()


def _not_json(exc: BaseException, arguments: Any) -> bool:
    """The arguments were text refused as not JSON (one `json` issue), not for their values."""
    issues: list[Any] = getattr(exc, "issues", [])
    return (
        isinstance(arguments, (str, bytes, bytearray))
        and len(issues) == 1
        and getattr(issues[0], "code", None) == "json"
    )


def _with_repairs(
    tool: str, prepared: Prepared | ToolResult, made: tuple[Repair, ...]
) -> Prepared | ToolResult:
    """A prepared call (or the result it already has) with these repairs told: logged, and
    noted for its result (`repairs`, and one line of `warnings`)."""
    from ..validation import repair

    repair.tell(tool, made)
    line = repair.warning(tool, made)
    if isinstance(prepared, ToolResult):
        return replace(
            prepared, warnings=(*prepared.warnings, line), repairs=(*prepared.repairs, *made)
        )
    return prepared._replace(notes=(*prepared.notes, line, *made))


def _validated(info: ToolInfo, arguments: Any) -> tuple[Any, tuple[str, ...]]:
    """The arguments of a tool that is not one `validate` call, and the warnings they carry."""
    if not hasattr(info, "renames"):  # a runtime older than renames: no warnings to collect
        return info.validate_arguments(arguments), ()
    notes: list[str] = []
    args = info.validate_arguments(arguments, on_warning=notes.append)
    return args, tuple(notes)
