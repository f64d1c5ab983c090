"""Compare a rendered file map with the output directory, and write it: whole, or not at all.

plan() only reads. apply() makes a generation visible at once. Each top-level entry of the
output that changes (the package folder, pyproject.toml) is staged complete in a sibling folder,
`OUT/.toolgen-stage-<pid>/`: files toolgen did not write are carried over (orphans, files that
carry toolgen's header or the runtime's marker but are no longer generated, are not), unchanged
files as hard links. Then each entry is exchanged with its staged version in one system call
(exchange.py: the package folder first, then pyproject.toml), and the staging folder, now
holding the old entries, is deleted: a reader sees each entry old or new at every instant, and
a killed run leaves only a staging folder the next run deletes. Where the platform or the file
system cannot exchange, a journal, `OUT/.toolgen-journal`, is written and fsynced, and the
entries are swapped in by renames (old -> `OUT/.toolgen-old-<pid>/`, new -> final); the journal
goes, then the old entries. A run killed before the journal leaves the old tree and a staging
folder the next run deletes; a run killed after it leaves a swap the next run completes
(recover()). Runs that write hold an exclusive lock on the output folder (outlock.py).
Nothing is written outside the output directory, nor through a symlink.
"""

from __future__ import annotations

import difflib
import errno
import json
import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from toolgen.config import BuildOptions
from toolgen.constants import GENERATED_MARK, RUNTIME_MARKER
from toolgen.durable import flush
from toolgen.exchange import Unsupported, exchange
from toolgen.outlock import JOURNAL, WriteError, locked

MARKERS = (GENERATED_MARK.encode(), RUNTIME_MARKER.encode())
STAGE, OLD = ".toolgen-stage-", ".toolgen-old-"
_LEGACY_TMP = ".toolgen-tmp"  # per-file temp files of earlier versions: never carried over
_REASONS = {
    errno.ENOSPC: "no space left on the device",
    errno.EFBIG: "file too large for the file system",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
}


@dataclass
class Plan:
    changed: dict[str, str] = field(default_factory=dict)  # stale on disk
    missing: dict[str, str] = field(default_factory=dict)  # not on disk
    orphans: list[str] = field(default_factory=list)  # ours on disk, no longer generated

    @property
    def clean(self) -> bool:
        return not (self.changed or self.missing or self.orphans)


def os_problem(exc: OSError, out: Path) -> str:
    """An OSError from writing the output, as a sentence."""
    where = exc.filename or out
    reason = _REASONS.get(exc.errno or 0, exc.strerror or str(exc))
    return f"cannot write the output in {out}: {reason} ({where}); the output was left as it was"


class _Guard:
    """Refuses paths that leave the output directory or pass through a symlink (cached per
    folder), and knows the folders that do not exist: nothing under them does either."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.seen: set[str] = set()
        self.absent: set[str] = set()  # folders looked at and not there

    def __call__(self, relative: str) -> tuple[Path, bool]:
        """The path to write, and whether a folder holding it was found missing."""
        parts = relative.split("/")
        if relative.startswith("/") or any(part in ("", ".", "..") for part in parts):
            raise WriteError(f"refusing to write outside the output directory: {relative}")
        for depth in range(1, len(parts) + 1):
            prefix = "/".join(parts[:depth])
            if prefix in self.seen:
                if prefix in self.absent:
                    return self.out / relative, True  # nothing below it: no link to find
                continue
            path = self.out / prefix
            try:
                mode: int | None = os.lstat(path).st_mode
            except OSError:  # not there (or not readable: its files are missing either way)
                mode = None
            if mode is not None and stat.S_ISLNK(mode):
                target = path.resolve()
                where = "inside" if target.is_relative_to(self.out.resolve()) else "outside"
                raise WriteError(
                    f"{path} is a symlink (to {target}, {where} the output directory): toolgen "
                    "writes only real files and folders; remove the link or choose another --out"
                )
            if depth < len(parts):
                self.seen.add(prefix)
                if mode is None:
                    self.absent.add(prefix)
                    return self.out / relative, True
        return self.out / relative, False


def is_generated(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(512)
    except OSError:
        return False
    return any(marker in head for marker in MARKERS)


def plan(out: Path, files: dict[str, str], options: BuildOptions) -> Plan:
    """What differs between `files` and the output on disk. WriteError for a path toolgen refuses."""
    result = Plan()
    guard = _Guard(out)
    for relative, text in files.items():
        target, absent = guard(relative)
        if absent:  # (a first generation: no file to open)
            result.missing[relative] = text
            continue
        try:
            current = target.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            result.missing[relative] = text
            continue
        if current != text:
            result.changed[relative] = text
    package_dir = out / options.package
    candidates = [out / "pyproject.toml", *(package_dir.rglob("*") if package_dir.is_dir() else [])]
    for path in sorted(candidates):
        relative = path.relative_to(out).as_posix()
        if (
            path.is_file()
            and not path.is_symlink()
            and relative not in files
            and is_generated(path)
        ):
            result.orphans.append(relative)
    return result


def pending(out: Path) -> bool:
    """True when an interrupted swap waits for the next writing run to complete it."""
    return (out / JOURNAL).exists()


def leftovers(out: Path) -> list[str]:
    """toolgen's own entries in OUT that no finished run leaves: staging, old trees, temp files, a journal."""
    try:
        names = os.listdir(out)
    except OSError:
        return []
    return sorted(n for n in names if n.startswith(".toolgen-"))


def recover(out: Path) -> list[str]:
    """Complete an interrupted swap and delete what killed runs left; what was done, as sentences.
    The caller holds the lock."""
    notes: list[str] = []
    journal = out / JOURNAL
    if journal.exists():
        try:
            record = json.loads(journal.read_text("utf-8"))
            stage, old, entries = record["stage"], record["old"], record["entries"]
        except (OSError, ValueError, KeyError, TypeError):
            journal.unlink()
            notes.append(f"removed an unreadable journal in {out}: its swap had not started")
        else:
            _swap(out, out / stage, out / old, entries)
            notes.append(
                f"completed an interrupted generation in {out} ({', '.join(entries)} replaced)"
            )
    for name in leftovers(out):
        path = out / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
        notes.append(f"removed {name} in {out}, left by an interrupted run")
    return notes


def apply(out: Path, result: Plan, report: Callable[[str], None] | None = None) -> None:
    """Write a plan (made before the lock: write() plans again under it); nothing at all when
    it is clean and no run left anything. WriteError, the output as it was, on a filesystem problem."""
    if not result.clean or leftovers(out):
        _locked(out, report, lambda: result)


def write(
    out: Path,
    files: dict[str, str],
    options: BuildOptions,
    report: Callable[[str], None] | None = None,
) -> Plan:
    """Plan, and apply under the lock a plan made again there (another run may have written),
    unless no entry of the output was there before nor is now: every file missing either way."""
    result = plan(out, files, options)
    if result.clean and not leftovers(out):
        return result
    entries = {relative.split("/", 1)[0] for relative in files} | {options.package}
    first = _absent(out, entries)
    again = lambda: result if first and _absent(out, entries) else plan(out, files, options)  # noqa: E731
    return _locked(out, report, again)


def _absent(out: Path, entries: set[str]) -> bool:
    return not any(os.path.lexists(out / entry) for entry in entries)


def _locked(out: Path, report: Callable[[str], None] | None, make: Callable[[], Plan]) -> Plan:
    try:
        with locked(out):
            for note in recover(out):
                if report:
                    report(note)
            result = make()
            if not result.clean:
                _stage_and_swap(out, result)
            return result
    except OSError as exc:
        raise WriteError(os_problem(exc, out)) from exc


def _stage_and_swap(out: Path, result: Plan) -> None:
    writes = {**result.missing, **result.changed}
    entries = sorted({relative.split("/", 1)[0] for relative in [*writes, *result.orphans]})
    stage, old = out / f"{STAGE}{os.getpid()}", out / f"{OLD}{os.getpid()}"
    try:
        stage.mkdir()
        for entry in entries:
            _carry_over(out / entry, stage / entry, skip={*writes, *result.orphans}, out=out)
        made: set[Path] = set()  # one mkdir per folder, not one per file
        for relative, text in writes.items():
            target = stage / relative
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            _write_file(target, text.encode("utf-8"))
        for relative in result.orphans:  # folders emptied by orphan removal
            parent = (stage / relative).parent
            while parent != stage and parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent
        _sync(stage)
        if _exchange_in(out, stage, entries):
            return
        _write_journal(out, {"stage": stage.name, "old": old.name, "entries": entries})
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        (out / f"{JOURNAL}.tmp").unlink(missing_ok=True)
        raise
    try:
        _swap(out, stage, old, entries)
    except OSError:
        _roll_back(out, stage, old, entries)
        raise


def _exchange_in(out: Path, stage: Path, entries: list[str]) -> bool:
    """Put each staged entry in place in one step (folders before files: the package, then
    pyproject.toml, in consecutive calls), then delete the old entries the exchanges left in the
    staging folder. False, the output untouched, where the platform or file system cannot exchange."""
    # (entry, exchange: else rename in, an entry not yet in OUT); an entry with nothing staged
    # (all of it orphans) stays, as in _swap
    steps = [
        (entry, os.path.lexists(out / entry))
        for entry in sorted(entries, key=lambda name: (stage / name).is_file())
        if os.path.lexists(stage / entry)
    ]
    done: list[tuple[str, bool]] = []
    try:
        for entry, exchanged in steps:
            (exchange if exchanged else os.rename)(stage / entry, out / entry)
            done.append((entry, exchanged))
    except BaseException as exc:  # an error, or Ctrl-C between two exchanges
        for entry, exchanged in reversed(done):  # back as it was, one step per entry again
            if exchanged:
                exchange(stage / entry, out / entry)
            else:
                os.rename(out / entry, stage / entry)
        if isinstance(exc, Unsupported):
            return False
        raise
    _fsync_dir(out)
    shutil.rmtree(stage, ignore_errors=True)
    return True


def _carry_over(source: Path, target: Path, skip: set[str], out: Path) -> None:
    """Copy the tree at `source` to `target` (hard links where possible), less `skip` (paths relative to out)."""
    if not os.path.lexists(source) or source.is_file():
        return  # a file entry (pyproject.toml) is always rewritten or removed: nothing to carry
    target.mkdir()
    for folder, dirs, names in os.walk(source):
        here = Path(folder)
        into = target / here.relative_to(source)
        for name in dirs + names:
            path = here / name
            relative = path.relative_to(out).as_posix()
            if relative in skip or name.endswith(_LEGACY_TMP):
                continue
            destination = into / name
            if path.is_symlink():
                os.symlink(os.readlink(path), destination)
            elif path.is_dir():
                destination.mkdir()
            else:
                try:
                    os.link(path, destination)
                except OSError:
                    shutil.copy2(path, destination)
        dirs[:] = [d for d in dirs if not (here / d).is_symlink()]


def _write_file(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _sync(stage: Path) -> None:
    """The staged tree on the device before the swap (a step the kill test stops at)."""
    flush(stage)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_journal(out: Path, record: dict[str, object]) -> None:
    tmp = out / f"{JOURNAL}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, json.dumps(record).encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, out / JOURNAL)
    _fsync_dir(out)


def _swap(out: Path, stage: Path, old: Path, entries: list[str]) -> None:
    """Move each entry's current version aside and its staged one in; idempotent, so that a swap
    cut short anywhere is completed by running it again. Then the journal goes, then the old tree."""
    old.mkdir(exist_ok=True)
    for entry in entries:
        new, final, aside = stage / entry, out / entry, old / entry
        if os.path.lexists(new):
            if os.path.lexists(final) and not os.path.lexists(aside):
                os.rename(final, aside)
            os.rename(new, final)
        elif not os.path.lexists(final) and os.path.lexists(aside):
            os.rename(aside, final)  # the staged copy is gone: keep the old one rather than nothing
    _fsync_dir(out)
    (out / JOURNAL).unlink(missing_ok=True)
    _fsync_dir(out)
    shutil.rmtree(old, ignore_errors=True)
    shutil.rmtree(stage, ignore_errors=True)


def _roll_back(out: Path, stage: Path, old: Path, entries: list[str]) -> None:
    """Undo a swap that failed part-way (not a kill: an error); if that fails too, the journal
    stays and the next run completes the swap instead."""
    try:
        for entry in entries:
            final, aside = out / entry, old / entry
            if os.path.lexists(aside):
                if os.path.lexists(final):
                    os.rename(final, stage / entry)
                os.rename(aside, final)
        (out / JOURNAL).unlink(missing_ok=True)
        _fsync_dir(out)
    except OSError:
        return
    shutil.rmtree(old, ignore_errors=True)
    shutil.rmtree(stage, ignore_errors=True)


def diff(out: Path, result: Plan) -> str:
    chunks: list[str] = []
    for relative, text in sorted({**result.changed, **result.missing}.items()):
        target = out / relative
        current = target.read_text("utf-8") if relative in result.changed else ""
        chunks.extend(
            difflib.unified_diff(
                current.splitlines(True), text.splitlines(True), f"a/{relative}", f"b/{relative}"
            )
        )
    for relative in result.orphans:
        chunks.extend(
            difflib.unified_diff(
                (out / relative).read_text("utf-8").splitlines(True),
                [],
                f"a/{relative}",
                "/dev/null",
            )
        )
    return "".join(chunks)
