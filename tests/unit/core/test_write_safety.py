"""Writing the output: whole or not at all, one run at a time, every filesystem problem a message.

A refused or failed generation leaves the output exactly as it was (byte for byte, and nothing
of toolgen's left beside it); files toolgen did not write survive a regeneration; a second run
waits for the first, and gives up with exit 2 after TOOLGEN_LOCK_TIMEOUT seconds.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

import toolgen.exchange as exchange_module
import toolgen.write as write_module
from tests.support.generation import REPO, tree
from toolgen.cli import main
from toolgen.config import BuildOptions
from toolgen.exchange import Unsupported, exchange
from toolgen.outlock import JOURNAL, WriteError, locked
from toolgen.pipeline import build
from toolgen.write import leftovers, plan, write

sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic  # noqa: E402

WEATHER = REPO / "tests" / "golden" / "cases" / "weather" / "specs"
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="flock, rlimits and mounts are POSIX")


@pytest.fixture(scope="module")
def other_specs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Specs whose package differs from weather's in every tool file."""
    folder = tmp_path_factory.mktemp("other")
    synthetic.write_specs(folder, 6, seed=3)
    return folder


def new_version(folder: Path) -> Path:
    """A project folder whose [tool.toolgen] version is 0.2.0: a generation run from it writes
    another pyproject.toml than the default 0.1.0 does."""
    folder.mkdir(parents=True)
    (folder / "pyproject.toml").write_text('[tool.toolgen]\nversion = "0.2.0"\n', "utf-8")
    return folder


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result.exit_code, result.stdout, result.stderr


def generate(out: Path, specs: Path = WEATHER, package: str = "weather") -> tuple[int, str, str]:
    return run("generate", "--specs", str(specs), "--out", str(out), "--package", package)


def subprocess_env(**extra: str) -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(REPO / "generator"), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, **extra}


def toolgen(*args: str, **popen: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolgen", *args],
        capture_output=True,
        text=True,
        timeout=120,
        **popen,
    )  # type: ignore[call-overload]


def as_before(out: Path, before: dict[str, bytes]) -> None:
    assert tree(out) == before
    assert not leftovers(out)


# --- staging and swapping ------------------------------------------------------------------------


def test_a_regeneration_keeps_user_files_drops_orphans_and_old_temp_files(
    tmp_path: Path, other_specs: Path
) -> None:
    assert generate(tmp_path)[0] == 0
    mine = tmp_path / "weather" / "notes" / "mine.txt"
    mine.parent.mkdir()
    mine.write_text("keep me\n")
    (tmp_path / "weather" / "empty").mkdir()
    legacy = (
        tmp_path / "weather" / ".models.py.toolgen-tmp"
    )  # what an earlier version left when killed
    legacy.write_text("partial\n")
    (tmp_path / "beside.txt").write_text("not toolgen's\n")
    old_tools = {
        p
        for p in tree(tmp_path)
        if p.startswith("weather/tools/") and not p.endswith("__init__.py")
    }
    code, out, err = generate(tmp_path, other_specs)
    assert code == 0, err
    files = tree(tmp_path)
    assert mine.read_text() == "keep me\n" and (tmp_path / "weather" / "empty").is_dir()
    assert (tmp_path / "beside.txt").exists() and not legacy.exists()
    assert old_tools and not old_tools & set(files), "orphans carry the header: they go"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["beside.txt", "pyproject.toml", "weather"]
    assert "removed" in out


def test_nothing_changed_writes_nothing(tmp_path: Path) -> None:
    assert generate(tmp_path)[0] == 0
    stamps = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")}
    code, out, _ = generate(tmp_path)
    assert code == 0 and "(0 written, 0 removed" in out
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")} == stamps


def refuse_exchange(a: Path, b: Path) -> None:
    """What a file system without RENAME_EXCHANGE answers (and what makes write.py take the journal)."""
    raise Unsupported(errno.EINVAL, "Invalid argument", str(a))


@pytest.mark.parametrize("swap", ["exchange", "journal"])
def test_a_swap_that_fails_half_way_is_rolled_back(
    tmp_path: Path, other_specs: Path, monkeypatch: pytest.MonkeyPatch, swap: str
) -> None:
    assert generate(tmp_path)[0] == 0
    before = tree(tmp_path)
    calls = []

    def second_fails(inner: Callable[[Path, Path], None]) -> Callable[[Path, Path], None]:
        def call(source: Path, target: Path) -> None:
            calls.append(source)
            if len(calls) == 2:  # journal: pyproject.toml aside, the new one not yet in place;
                # exchange: the package exchanged, pyproject.toml not yet
                raise OSError(errno.EIO, "Input/output error", str(target))
            inner(source, target)

        return call

    if swap == "journal":
        monkeypatch.setattr(write_module, "exchange", refuse_exchange)
        monkeypatch.setattr(os, "rename", second_fails(os.rename))
    else:
        monkeypatch.setattr(write_module, "exchange", second_fails(exchange))
    monkeypatch.chdir(
        new_version(tmp_path.with_name(tmp_path.name + "-project"))
    )  # a new pyproject
    code, _, err = generate(tmp_path, other_specs)
    assert (
        code == 2
        and "Input/output error" in err
        and "left as it was" in err
        and "Traceback" not in err
    )
    as_before(tmp_path, before)
    if swap == "exchange":
        assert len(calls) == 3  # the package's exchange undone by a second one


def test_ctrl_c_between_the_two_exchanges_puts_the_package_back(
    tmp_path: Path, other_specs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert generate(tmp_path)[0] == 0
    before = tree(tmp_path)
    calls = []

    def interrupted(a: Path, b: Path) -> None:
        calls.append(a)
        if len(calls) == 2:
            raise KeyboardInterrupt
        exchange(a, b)

    monkeypatch.setattr(write_module, "exchange", interrupted)
    options = BuildOptions(package="weather", version="0.2.0")  # pyproject.toml changes too
    files = build(other_specs, options).files
    with pytest.raises(KeyboardInterrupt):
        write(tmp_path, files, options)
    as_before(tmp_path, before)
    assert len(calls) == 3


def test_without_an_exchange_the_journal_swap_writes_the_same_tree(
    tmp_path: Path, other_specs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert generate(tmp_path / "exchanged", other_specs)[0] == 0
    assert generate(tmp_path / "journal")[0] == 0
    refused = []

    def refuse(a: Path, b: Path) -> None:
        refused.append(a)
        refuse_exchange(a, b)

    monkeypatch.setattr(write_module, "exchange", refuse)
    code, _, err = generate(tmp_path / "journal", other_specs)
    assert code == 0, err
    assert refused, "the exchange was tried first"
    assert tree(tmp_path / "journal") == tree(tmp_path / "exchanged")
    assert not leftovers(tmp_path / "journal")


def test_a_first_generation_renames_the_entries_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing to exchange with: a plain rename takes an absent entry to a complete one."""
    monkeypatch.setattr(write_module, "exchange", refuse_exchange)  # never called
    for out in (tmp_path / "new", tmp_path / "empty"):
        if out.name == "empty":
            out.mkdir()
        code, _, err = generate(out)
        assert code == 0, err
        assert sorted(p.name for p in out.iterdir()) == ["pyproject.toml", "weather"]


@pytest.mark.skipif(exchange_module.primitive() is None, reason="no atomic exchange here")
def test_exchange_swaps_two_entries_of_any_kind(tmp_path: Path) -> None:
    folder, file = tmp_path / "folder", tmp_path / "file"
    folder.mkdir()
    (folder / "inside").write_text("in the folder\n")
    file.write_text("a file\n")
    exchange(folder, file)
    assert file.is_dir() and (file / "inside").read_text() == "in the folder\n"
    assert folder.read_text() == "a file\n"
    with pytest.raises(OSError) as missing:
        exchange(folder, tmp_path / "absent")
    assert missing.value.errno == errno.ENOENT and not isinstance(missing.value, Unsupported)


@pytest.mark.skipif(
    not sys.platform.startswith("linux")
    or platform.machine() not in exchange_module._SYSCALL_RENAMEAT2,
    reason="the raw renameat2 system call is known on Linux x86_64 and aarch64",
)
def test_without_renameat2_in_libc_the_system_call_exchanges(tmp_path: Path) -> None:
    """An older glibc or musl exports no renameat2: the system call is made by its number."""
    libc = ctypes.CDLL(None, use_errno=True)
    call = exchange_module._load(SimpleNamespace(syscall=libc.syscall))
    assert call is not None
    (tmp_path / "a").write_text("a\n")
    (tmp_path / "b").mkdir()
    assert call(os.fsencode(tmp_path / "a"), os.fsencode(tmp_path / "b")) == 0
    assert (tmp_path / "a").is_dir() and (tmp_path / "b").read_text() == "a\n"
    assert exchange_module._load(SimpleNamespace()) is None  # neither: the journal


def test_exchange_is_unsupported_where_the_platform_has_no_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exchange_module, "primitive", lambda: None)
    (tmp_path / "a").write_text("a\n")
    (tmp_path / "b").write_text("b\n")
    with pytest.raises(Unsupported):
        exchange(tmp_path / "a", tmp_path / "b")
    assert (tmp_path / "a").read_text() == "a\n"


def test_check_reports_a_pending_recovery_and_writes_nothing(tmp_path: Path) -> None:
    assert generate(tmp_path)[0] == 0
    journal = tmp_path / JOURNAL
    journal.write_text(
        '{"stage": ".toolgen-stage-1", "old": ".toolgen-old-1", "entries": ["weather"]}'
    )
    before = tree(tmp_path)
    code, _, err = run(
        "check", "--specs", str(WEATHER), "--out", str(tmp_path), "--package", "weather"
    )
    assert code == 1 and "interrupted generation" in err and "toolgen generate" in err
    assert tree(tmp_path) == before
    code, _, err = generate(tmp_path)  # a journal whose staged tree is gone keeps the current tree
    assert code == 0 and "completed an interrupted generation" in err and not journal.exists()
    assert (
        run("check", "--specs", str(WEATHER), "--out", str(tmp_path), "--package", "weather")[0]
        == 0
    )


# --- locking -------------------------------------------------------------------------------------


@POSIX
def test_a_second_run_waits_a_bounded_time_then_fails_cleanly(tmp_path: Path) -> None:
    assert generate(tmp_path)[0] == 0
    shutil.rmtree(tmp_path / "weather" / "tools")
    with locked(tmp_path):  # another run holds the output
        started = time.monotonic()
        result = toolgen(
            "generate",
            "--specs",
            str(WEATHER),
            "--out",
            str(tmp_path),
            "--package",
            "weather",
            env=subprocess_env(TOOLGEN_LOCK_TIMEOUT="0.5"),
        )
        waited = time.monotonic() - started
    assert result.returncode == 2 and "in use by another toolgen run" in result.stderr, (
        result.stderr
    )
    assert "TOOLGEN_LOCK_TIMEOUT" in result.stderr and "Traceback" not in result.stderr
    assert waited >= 0.5 and not (tmp_path / "weather" / "tools").exists()


@POSIX
def test_two_runs_at_once_both_succeed_and_leave_one_tree(
    tmp_path: Path, other_specs: Path
) -> None:
    assert generate(tmp_path)[0] == 0
    args = ["generate", "--specs", str(other_specs), "--out", str(tmp_path), "--package", "weather"]
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "toolgen", *args],
            env=subprocess_env(),
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    results = [(p.wait(timeout=120), *p.communicate()) for p in runs]
    assert all(code == 0 for code, _, _ in results), [err[-1000:] for _, _, err in results]
    assert sorted("(0 written" in out for _, out, _ in results) == [False, True, True]
    assert not leftovers(tmp_path)
    assert (
        run("check", "--specs", str(other_specs), "--out", str(tmp_path), "--package", "weather")[0]
        == 0
    )


@pytest.mark.parametrize("value", ["soon", "", "-1", "nan"])
def test_a_lock_timeout_that_is_not_a_number_is_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("TOOLGEN_LOCK_TIMEOUT", value)
    message = f"TOOLGEN_LOCK_TIMEOUT={value!r} is not a number of seconds (0 or more)"
    with pytest.raises(WriteError) as refused:
        with locked(tmp_path):
            pass
    assert str(refused.value) == message


# --- filesystem problems -------------------------------------------------------------------------


@pytest.mark.skipif(
    not Path("/proc/self/fd").is_dir(), reason="needs /proc to tell which file a write goes to"
)
@pytest.mark.parametrize(
    "code, reason", [(errno.ENOSPC, "no space left"), (errno.EFBIG, "file too large")]
)
def test_a_write_error_leaves_the_output_as_it_was(
    tmp_path: Path, other_specs: Path, monkeypatch: pytest.MonkeyPatch, code: int, reason: str
) -> None:
    out = tmp_path / "out"
    assert generate(out)[0] == 0
    before = tree(out)
    real_write = os.write
    written = []

    def full_disk(fd: int, data: bytes) -> int:  # writes into the output fail after the 3rd file
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(out)):
            written.append(fd)
            if len(written) > 3:
                raise OSError(code, os.strerror(code))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    exit_code, _, err = generate(out, other_specs)
    monkeypatch.undo()
    assert exit_code == 2 and reason in err and str(out) in err and "Traceback" not in err, err
    as_before(out, before)


@POSIX
def test_a_real_file_size_limit_leaves_the_output_as_it_was(
    tmp_path: Path, other_specs: Path
) -> None:
    """RLIMIT_FSIZE: the kernel refuses to grow a file past 8 KiB (EFBIG; Python ignores SIGXFSZ)."""
    out = tmp_path / "out"
    assert generate(out)[0] == 0
    before = tree(out)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    result = toolgen(
        "generate",
        "--specs",
        str(other_specs),
        "--out",
        str(out),
        "--package",
        "weather",
        env=subprocess_env(),
        preexec_fn=limit,
    )
    assert result.returncode == 2 and "file too large" in result.stderr, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    as_before(out, before)


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs (needs the right to mount: root in a container that allows it): room for
    the weather package (about 1.1 MiB of blocks), not for a big one."""
    point = tmp_path / "mnt"
    point.mkdir()
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(point)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield point
    finally:
        subprocess.run(["umount", str(point)], check=False)


def test_a_real_full_disk_leaves_the_output_as_it_was(small_fs: Path, tmp_path: Path) -> None:
    specs = tmp_path / "big"
    synthetic.write_specs(specs, 150, seed=5)  # about 4 MiB of package: cannot fit
    assert generate(small_fs)[0] == 0
    before = tree(small_fs)
    code, _, err = generate(small_fs, specs)
    assert code == 2 and "no space left" in err and "Traceback" not in err, err
    as_before(small_fs, before)


def test_a_read_only_output_is_a_message(small_fs: Path, other_specs: Path) -> None:
    assert generate(small_fs)[0] == 0
    subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], check=True)
    before = tree(small_fs)
    assert generate(small_fs)[0] == 0  # nothing to write: fine on a read-only output
    code, _, err = generate(small_fs, other_specs)
    assert code == 2 and "read-only" in err and "Traceback" not in err, err
    as_before(small_fs, before)


@pytest.mark.parametrize("link", ["weather", "weather/tools"])
def test_an_output_path_through_a_symlink_is_refused(tmp_path: Path, link: str) -> None:
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    assert generate(out)[0] == 0
    shutil.move(out / link, elsewhere)
    (out / link).symlink_to(elsewhere, target_is_directory=True)
    outside = tree(elsewhere)
    code, _, err = generate(out)
    assert code == 2 and "is a symlink" in err and "outside the output directory" in err, err
    assert "Traceback" not in err and tree(elsewhere) == outside and not leftovers(out)
    code, _, err = run("check", "--specs", str(WEATHER), "--out", str(out), "--package", "weather")
    assert code == 2 and "is a symlink" in err


def test_an_output_folder_inside_a_file_is_a_message(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("a file\n")
    code, _, err = generate(tmp_path / "file" / "out")
    assert code == 2 and "cannot write the output" in err and "Traceback" not in err


def test_a_path_out_of_the_output_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match="outside the output directory"):
        plan(tmp_path, {"../escape.py": "x\n"}, BuildOptions(package="p"))
    with pytest.raises(WriteError, match="outside the output directory"):
        write(tmp_path, {"p/../../escape.py": "x\n"}, BuildOptions(package="p"))
    assert not (tmp_path.parent / "escape.py").exists()


# --- package names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, message",
    [
        ("typing", "shadow the module 'typing' of the standard library"),
        ("json", "shadow the module 'json' of the standard library"),
        ("pydantic", "shadow the module 'pydantic' of a dependency"),
        ("typing_extensions", "of a dependency"),
        ("hypothesis", "of a dependency"),
        ("\uff46\uff4f\uff4f", "Python imports it as 'foo'"),  # full-width foo
        ("\u00b5", "Python imports it as '\u03bc'"),  # micro sign -> Greek mu
        ("class", "not a Python identifier"),
    ],
)
def test_package_names_python_would_not_import_as_given_are_refused(
    tmp_path: Path, name: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        BuildOptions(package=name)
    code, _, err = generate(tmp_path / "out", package=name)
    assert code == 2 and message in err and not (tmp_path / "out").exists()


def test_normal_non_ascii_and_near_miss_names_are_accepted() -> None:
    for name in ("weather", "json_tools", "typing2", "my_pydantic"):
        assert BuildOptions(package=name).package == name
    assert BuildOptions(package="\u03bc", distribution="mu").package == "\u03bc"
