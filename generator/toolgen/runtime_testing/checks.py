# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The contract checks: each runs the judge (verdict.py) over drawn arguments under
hypothesis, or over the spec's examples, or reads the declared policies; the first broken
promise, shrunk, is raised as a ContractViolation.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import Phase, given
from hypothesis import settings as Settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from ._link import (
    ToolInfo,
)
from .outcomes import Outcome
from .terms import (
    ContractViolation,
    Override,
    RegistrySource,
    Seed,
    ToolContract,
    holds,
    registry_of,
)
from .verdict import Judge

MAX_OTHERS = 3  # calls between the two identical ones of the idempotence check


def _hypothesis(
    body: Callable[..., None],
    judge: Judge,
    strategies: dict[str, SearchStrategy[Any]],
    settings: Settings | None,
) -> None:
    """Run `body` under @given (it takes the drawn values as keywords named as `strategies`);
    the shrunk example's ContractViolation propagates."""
    names = list(strategies)

    def drawn(*args: Any, **kwargs: Any) -> None:  # hypothesis passes them by position
        body(**dict(zip(names, args, strict=False)), **kwargs)

    name = f"{judge.check}_{judge.tool}"
    drawn.__name__ = drawn.__qualname__ = "".join(c if c.isalnum() else "_" for c in name)
    # Hypothesis keys its example database by the function's source and signature: the
    # annotation tells the tools apart (and the packages), so one tool's failures are not
    # replayed against another.
    where = f"{judge.check} of {judge.info.name} in {judge.info.arguments.__module__}"
    setattr(  # noqa: B010 - mypy knows no __signature__ on a function
        drawn,
        "__signature__",
        inspect.Signature(
            [
                inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=where)
                for k in strategies
            ]
        ),
    )
    test = given(**strategies)(drawn)
    try:
        (settings if settings is not None else default_settings())(test)()
    except ContractViolation as exc:
        # hypothesis notes the falsifying example (the drawn arguments' repr): redacted too.
        notes = getattr(exc, "__notes__", None)
        if isinstance(notes, list):
            notes[:] = [judge.redact(str(note)) for note in notes]
        raise


def default_settings() -> Settings:
    """The active profile's, without a deadline (the kit judges outcomes, not speed) nor the explain
    phase (it costs seconds per failure and points at the kit's own lines)."""
    return Settings(deadline=None, phases=[p for p in Settings().phases if p is not Phase.explain])


def check_results(
    registry: RegistrySource,
    contract: ToolContract,
    *,
    injected: Mapping[str, Any] | None = None,
    overrides: Mapping[str, Override] | None = None,
    seed: Seed | None = None,
    settings: Settings | None = None,
) -> None:
    """For drawn arguments, every call returns a result `returns` accepts or raises a declared
    ToolError, within the declared `timeout_s`.

    `overrides` replace the strategies of arguments by wire name; an override may be a function
    of the example's registry (made, then seeded) returning the strategy. `seed` prepares
    every registry the check makes: with a factory, the fresh one of each example."""
    judge = Judge(registry, contract, injected, "results", overrides=overrides, seed=seed)

    def results(**drawn: Any) -> None:
        current = judge.fresh()
        judge.run(current, judge.draw(drawn, current))

    _hypothesis(results, judge, judge.given(), settings)


def _others(strategy: SearchStrategy[Any]) -> SearchStrategy[list[Any]]:
    return st.lists(strategy, max_size=MAX_OTHERS)


def check_idempotent(
    registry: RegistrySource,
    contract: ToolContract,
    *,
    injected: Mapping[str, Any] | None = None,
    overrides: Mapping[str, Override] | None = None,
    seed: Seed | None = None,
    settings: Settings | None = None,
) -> None:
    """Call a, some others, a again: both calls of a end alike (results JSON-equal, or errors of one kind)."""
    judge = Judge(registry, contract, injected, "idempotent", overrides=overrides, seed=seed)

    def idempotent(**drawn: Any) -> None:
        current = judge.fresh()
        arguments = judge.draw(drawn, current)
        others = judge.draw(drawn, current, "others", _others)
        first = judge.run(current, arguments)
        for i, other in enumerate(others):
            judge.run(current, other, [arguments, *others[:i]])
        calls = [arguments, *others, arguments]
        second = judge.run(current, arguments, calls[:-1])
        if not first.same(second):
            raise judge.violation(
                "not_idempotent",
                "flagged idempotent, but the same call gave another outcome the second time",
                [f"first:  {first.shown()}", f"second: {second.shown()}"],
                calls,
            )

    _hypothesis(idempotent, judge, judge.given(others=_others), settings)


def check_examples(
    registry: RegistrySource,
    contract: ToolContract,
    *,
    injected: Mapping[str, Any] | None = None,
    seed: Seed | None = None,
) -> None:
    """Every example of the spec runs, in order, and ends as it says (its result, or its error kind)."""
    judge = Judge(registry, contract, injected, "examples", seed=seed)
    failed: list[ContractViolation] = []
    # One registry for all (seeded once): examples run in order, as the spec lists them.
    current = judge.registry
    for number, example in enumerate(contract.examples, 1):
        arguments = example.get("arguments", {})
        label = f"example {number}" + (
            f" ({example['description']})" if example.get("description") else ""
        )
        try:
            outcome = judge.run(current, arguments)
            if "error" in example and outcome.error != example["error"]:
                raise judge.violation(
                    "example_mismatch",
                    f"{label} should fail with {example['error']!r}",
                    [f"got: {outcome.shown()}"],
                    [arguments],
                )
            if "result" in example and not outcome.same(Outcome(result=example["result"])):
                raise judge.violation(
                    "example_mismatch",
                    f"{label} should give its result",
                    [
                        f"expected: {Outcome(result=example['result']).shown()}",
                        f"got:      {outcome.shown()}",
                    ],
                    [arguments],
                )
        except ContractViolation as exc:
            failed.append(exc)
    if len(failed) == 1:
        raise failed[0]
    if failed:
        details = [
            line for exc in failed for line in (exc.summary, *(f"  {d}" for d in exc.details))
        ]
        raise judge.violation(
            failed[0].problem,
            f"{len(failed)} of {len(contract.examples)} examples fail",
            details,
            [call for exc in failed for call in exc.calls],
        )


def _attempts(info: ToolInfo) -> int:
    """The calls a declared `retry` allows in all (1: no retry; older packages declare none)."""
    retry = getattr(info, "retry", None)
    attempts = retry[0] if isinstance(retry, tuple) and retry else 1
    return attempts if isinstance(attempts, int) else 1


def declares_policies(info: ToolInfo) -> bool:
    """Whether the spec declares a policy `check_policies` judges (a cache, a retry)."""
    return getattr(info, "cache", None) is not None or _attempts(info) > 1


def check_policies(registry: RegistrySource, contract: ToolContract) -> None:
    """The declared policies are safe: a result is cached only for a tool flagged `idempotent`
    (a cached result answers a call without running the tool), and a `retry` is declared only
    where something says calling again is safe (the flag `idempotent` or `retryable`, or an
    error kind marked `retryable: true`). Read from the spec; nothing is called."""
    info = contract.info
    holds(registry_of(registry), info)
    flags = frozenset(getattr(info, "flags", ()))
    found: list[tuple[str, str, str]] = []  # (problem, what is wrong, what to change)
    cache = getattr(info, "cache", None)
    if cache is not None and "idempotent" not in flags:
        ttl_s, max_entries = tuple(cache)[:2]
        wrong = (
            f"is cached (ttl_s {ttl_s:g}, max_entries {max_entries}) but not flagged idempotent: "
            "a cached result answers calls that should have run the tool"
        )
        fix = (
            "in the spec, add `idempotent` to `flags` if calling it again with the same "
            "arguments changes nothing more; else remove `cache`"
        )
        found.append(("cache_not_idempotent", wrong, fix))
    attempts = _attempts(info)
    retryable = frozenset(getattr(info, "retryable_errors", ()))
    if attempts > 1 and not {"idempotent", "retryable"} & flags and not retryable:
        wrong = (
            f"declares retry with {attempts} attempts, but nothing says calling it again is "
            "safe: it is flagged neither `idempotent` nor `retryable`, and no error kind is "
            "`retryable: true`"
        )
        fix = (
            "in the spec, mark the error kinds a second call may pass with `retryable: true`, "
            "or flag the tool `retryable` (or `idempotent`) if calling it again is safe; else "
            "remove `retry`"
        )
        found.append(("retry_not_safe", wrong, fix))
    if not found:
        return
    if len(found) == 1:
        problem, summary, fix = found[0]
        raise ContractViolation(info.name, "policies", problem, summary, [fix], [])
    raise ContractViolation(
        info.name,
        "policies",
        found[0][0],
        f"declares {len(found)} policies its flags do not make safe",
        [line for _, summary, fix in found for line in (summary, f"  {fix}")],
        [],
    )


def check_streams(
    registry: RegistrySource,
    contract: ToolContract,
    *,
    injected: Mapping[str, Any] | None = None,
    overrides: Mapping[str, Override] | None = None,
    seed: Seed | None = None,
    settings: Settings | None = None,
) -> None:
    """For a tool flagged `streaming`: a stream cut short after its first item closes cleanly
    (ContractViolation `close_failed` otherwise)."""
    judge = Judge(registry, contract, injected, "streams", overrides=overrides, seed=seed)

    def streams(**drawn: Any) -> None:
        current = judge.fresh()
        judge.cut(current, judge.draw(drawn, current))

    _hypothesis(streams, judge, judge.given(), settings)


def check_contract(
    registry: RegistrySource,
    contract: ToolContract,
    *,
    injected: Mapping[str, Any] | None = None,
    overrides: Mapping[str, Override] | None = None,
    seed: Seed | None = None,
    settings: Settings | None = None,
) -> None:
    """check_policies, check_results, check_idempotent (for tools flagged idempotent),
    check_examples and check_streams (for tools flagged streaming)."""
    check_policies(registry, contract)
    options: dict[str, Any] = {"injected": injected, "overrides": overrides, "seed": seed}
    check_results(registry, contract, settings=settings, **options)
    if "idempotent" in contract.info.flags:
        check_idempotent(registry, contract, settings=settings, **options)
    check_examples(registry, contract, injected=injected, seed=seed)
    if "streaming" in contract.info.flags:
        check_streams(registry, contract, settings=settings, **options)
