"""The pipeline, end to end: load -> check -> lower -> export -> render -> format. Writing is the caller's.

A successful build is cached whole (cache.py): when no input changed, `build` is a hash
of the inputs and one read, and the stages below are not even imported. Given the output
folder, and when it is as `remember` last recorded it, not even that read: the build
reports the output intact, and there is nothing to write. The renderer
emits black's layout; the format stage only hands black the rare file outside it
(docs/decisions/0007-one-formatting-strategy.md).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolgen import cache as buildcache
from toolgen.config import BuildOptions
from toolgen.diagnostics import Diagnostic, has_errors, ordered

if TYPE_CHECKING:
    from toolgen.check.context import CheckedTool
    from toolgen.load.files import SpecFile
    from toolgen.load.specs import SpecSet

Progress = Callable[[str], None]  # told the name of each stage as it starts
# Set to a list by a process that ends without freeing its heap (toolgen's __main__): a
# build keeps its intermediate data there rather than free it, object by object, on return.
RETAINED: list[object] | None = None


def _quiet(stage: str) -> None:
    pass


@dataclass
class Build:
    diagnostics: list[Diagnostic]
    tools: tuple[str, ...] | None  # canonical names of the tools built; None when there are errors
    files: dict[str, str]  # relative path -> text as written; empty when there are errors
    key: str | None = None  # the build cache's key of the inputs (None: caching is off)
    # The number of files of the output folder passed to `build`, when it is known to hold
    # this build already (`files` is then empty: there is nothing to compare or write).
    intact: int | None = None
    every: list[Diagnostic] | None = None  # the diagnostics before `disable` left some out

    @property
    def ok(self) -> bool:
        return self.tools is not None


def check_specs(
    specs: Path,
    exports: bool = True,
    progress: Progress = _quiet,
    disable: tuple[str, ...] = (),
    providers: tuple[str, ...] | None = None,
) -> tuple[list[Diagnostic], list[CheckedTool]]:
    """Load and lint. `exports=False`: without the provider rule (build reports it from its own exports).
    `disable`: rule IDs whose warnings are left out ([tool.toolgen.lint]); `providers`: the
    targets the provider rule reports on ([tool.toolgen] providers; None: every one)."""
    loaded = _load(specs, progress)
    progress("check")
    return lint(loaded, exports, disable, providers)


def _load(
    specs: Path,
    progress: Progress,
    beside: Callable[[], object] | None = None,
    read: list[SpecFile] | None = None,
) -> SpecSet:
    from toolgen.load.specs import load_specs

    if not specs.is_dir():
        raise FileNotFoundError(f"specs directory not found: {specs}")
    progress("load")
    return load_specs(specs, beside=beside, files=read)


def _prepare(options: BuildOptions) -> None:
    """What the stages after load need first: their modules, and the templates compiled. Done
    while a child parses a large spec set; else each is done at its first use."""
    import toolgen.check
    import toolgen.format
    import toolgen.lower
    import toolgen.parallel
    import toolgen.providers.diagnostics  # noqa: F401
    from toolgen.render.environment import warm

    warm(str(options.templates) if options.templates else None)


def lint(
    specs: SpecSet,
    exports: bool = True,
    disable: tuple[str, ...] = (),
    providers: tuple[str, ...] | None = None,
) -> tuple[list[Diagnostic], list[CheckedTool]]:
    """Check a loaded spec set; `exports` adds what the provider exporters say about it."""
    from toolgen import check
    from toolgen.providers import diagnostics as provider_rule

    diagnostics, tools = check.run(specs)
    diagnostics += _unsatisfiable(tools, diagnostics)
    if exports:
        diagnostics += provider_rule.warnings(tools, providers)
    return _without(ordered(diagnostics), disable), tools


def _unsatisfiable(tools: list[CheckedTool], diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The `unsatisfiable` warnings of the tools whose files have no error (an error says more)."""
    from toolgen.render import satisfiable

    broken = {d.file for d in diagnostics if d.is_error}
    return list(satisfiable.warnings(t for t in tools if t.doc.display not in broken))


def _warnings(
    specs: SpecSet, tools: list[CheckedTool], diagnostics: list[Diagnostic]
) -> list[Diagnostic]:
    """What `lint` adds to `check.run(specs, every=False)`'s diagnostics: warnings only, which
    no later stage waits for (a large build finds them on its second core, parallel.py)."""
    from toolgen import check

    return check.later(specs, tools) + _unsatisfiable(tools, diagnostics)


def _without(diagnostics: list[Diagnostic], disable: tuple[str, ...]) -> list[Diagnostic]:
    """Leave out the warnings of disabled rules. Applied after the build cache, which keeps them all."""
    if not disable:
        return diagnostics
    from toolgen.check.catalogue import without_disabled

    return without_disabled(diagnostics, disable)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """The stages build millions of small, acyclic containers: the cyclic collector would
    rescan the whole growing heap again and again (a build of 5,000 tools spent a quarter
    of its time there, and more per tool the more tools). Reference counting still frees
    everything; the collector runs again after the build.

    Every object made meanwhile is still tracked, in the youngest generation: the first
    collections after the build would scan them all (two, 0.38 s after a cold build of 1,000
    tools). A process that keeps the build until it ends (RETAINED) moves them out of the
    collector's sight first (`gc.freeze`, one splice of its lists)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if RETAINED is not None:
            gc.freeze()
        if enabled:
            gc.enable()


def build(
    specs: Path,
    options: BuildOptions,
    progress: Progress = _quiet,
    disable: tuple[str, ...] = (),
    out: Path | None = None,
) -> Build:
    """`disable`: rule IDs whose warnings are left out (only warnings: the build's files do not
    depend on it). `out`: the output folder, when the caller writes there: if it holds this
    build as `remember` recorded it, the result says so in `intact` and carries no files."""
    if "toolgen.parallel" in sys.modules:  # a cache entry still being stored
        sys.modules["toolgen.parallel"].settle()
    read = None  # the spec files as the key read them: the build loads the same bytes
    if buildcache.cache_root() and specs.is_dir():
        from toolgen.load.files import Limits, read_specs

        read = read_specs(specs, Limits.from_env())
    key = buildcache.build_key(specs, options, read) if read is not None else None
    kept = buildcache.intact(specs, options, key, out) if key and out is not None else None
    if kept is not None:
        diagnostics, tools, count = kept
        result = Build(diagnostics, tools, {}, key, count)
    else:
        cached = buildcache.load(specs, options, key)[1] if key else None
        if cached is not None:
            result = Build(*cached, key=key)
        else:
            with _no_cycle_collection():
                result = _build(specs, options, progress, read)
            result.key = key
            if key is not None and result.ok:
                _store(specs, options, key, result)
    if disable:
        result.every, result.diagnostics = result.diagnostics, _without(result.diagnostics, disable)
    return result


def _store(specs: Path, options: BuildOptions, key: str, result: Build) -> None:
    """Keep a build in the cache: a large one in a forked child (about 0.2-0.4 s of encoding,
    hashing and writing 25 MB), while this process writes the output; the process waits
    for it before it exits, and a later build in this process before it reads the cache."""
    from toolgen import parallel

    stored = (result.diagnostics, result.tools or (), result.files)
    if parallel.wanted(len(stored[1])):
        parallel.in_background(lambda: buildcache.store(specs, options, key, stored))
    else:
        buildcache.store(specs, options, key, stored)


def remember(specs: Path, options: BuildOptions, out: Path, result: Build) -> None:
    """Record that `out` now holds `result` (just written, or compared equal), so that the
    next `build` of the same inputs into it finds it intact without reading it."""
    if result.key is not None and result.tools is not None and result.intact is None:
        buildcache.stamp(
            specs,
            options,
            result.key,
            out,
            (result.every or result.diagnostics, result.tools, result.files),
        )


def _build(
    specs: Path, options: BuildOptions, progress: Progress, read: list[SpecFile] | None = None
) -> Build:
    """`read`: the spec files as `read_specs` read them, when the caller has (for the key)."""
    loaded = _load(specs, progress, beside=lambda: _prepare(options), read=read)
    progress("check")
    from toolgen import check
    from toolgen.providers import diagnostics as provider_rule

    checked, tools = check.run(loaded, every=False)
    if has_errors(checked):  # nothing is rendered: the rules report as `toolgen lint` does
        found = provider_rule.warnings(tools, options.providers)
        return Build(ordered(checked + _warnings(loaded, tools, checked) + list(found)), None, {})

    from toolgen import parallel
    from toolgen.format import format_files
    from toolgen.lower import lower
    from toolgen.providers import export, notes_of, tokens, variants
    from toolgen.render import render_package, tool_files
    from toolgen.runtime.kinds import MCP

    progress("lower")
    ir = lower(tools, options.package, loaded.sha256)
    custom = options.templates is not None  # every rendered Python file goes through black
    budget = options.examples_budget
    # MCP's definitions first: the tool files' search index reads them (so the child below
    # need not export them again), and they are MCP's export below.
    made = {MCP: export(MCP, ir.tools, examples_budget=budget)} if MCP in options.providers else {}
    mcp = made[MCP].definitions if made else None
    with ExitStack() as stack:
        # The tool modules and the warnings need nothing else of the exports: a large build
        # finds them on the other core meanwhile (parallel.py), else this process does below.
        child = (
            stack.enter_context(
                parallel.in_child(
                    lambda: (
                        _warnings(loaded, tools, checked),
                        format_files(tool_files(ir, options, mcp), overridden=custom),
                    )
                )
            )
            if parallel.wanted(len(ir.tools))
            else None
        )
        progress("export")
        # Once: the notes are lint's warnings, the definitions are rendered.
        exports = {
            provider: [
                (
                    option,
                    made[provider]
                    if provider in made and not option
                    else export(provider, ir.tools, examples_budget=budget, **option),
                )
                for option in variants(provider)
            ]
            for provider in options.providers
        }
        # The token estimates only warn: on the other core too, while this process renders
        # the definitions (by then the first child is done or nearly).
        estimates = (
            stack.enter_context(parallel.in_child(lambda: list(tokens.warnings(exports, tools))))
            if child is not None
            else None
        )
        diagnostics = checked + list(provider_rule.report(notes_of(exports), tools))
        progress("render")
        rendered = render_package(ir, options, exports=exports, tools={} if child else None)
        progress("format")
        files = format_files(rendered, overridden=custom)
        estimated = estimates.result() if estimates is not None else None
        diagnostics += tokens.warnings(exports, tools) if estimated is None else estimated
        answer = child.result() if child is not None else None
        if answer is not None:
            warned, done = answer
        else:
            warned = _warnings(loaded, tools, checked)
            done = format_files(tool_files(ir, options, mcp), overridden=custom) if child else {}
        diagnostics += warned
    if RETAINED is not None:
        RETAINED.append((loaded, tools, ir, exports, rendered))
    if done:
        files = dict(sorted({**files, **done}.items()))
    return Build(ordered(diagnostics), tuple(t.name for t in ir.tools), files)
