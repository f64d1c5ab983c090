# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Whether the package being served is older than the specs it was generated from.

`python -m <package> serve` runs what is installed. After the specs change, the installed
package serves the old tools until it is generated and installed again, and nothing else says
so. When the specs are at hand (the package imported from its project's output folder, as an
editable install does; or the server started inside the project), `stale(package)` compares
the package's SPEC_SHA256 with a digest of those specs and says what to run.

The project is the nearest pyproject.toml with a [tool.toolgen] table whose `package` is this
package, above the package's folder or the working directory. The digest is toolgen's
(`SpecSet.sha256`: one line per spec file, its path relative to the specs folder, a NUL and
the sha256 of its bytes, in the order of the paths); toolgen's tests hold the two equal.
"""

from __future__ import annotations

import hashlib
import sys
import tomllib
from pathlib import Path
from typing import Any

SUFFIXES = (".yaml", ".yml", ".json")  # toolgen's spec files (load/files.py)


def specs_sha256(root: Path) -> str:
    """The digest of the spec files under `root`, as toolgen computes it."""
    files = [
        path
        for path in root.rglob("*")
        if path.suffix.lower() in SUFFIXES
        and not any(part.startswith(".") for part in path.relative_to(root).parts)
        and path.is_file()
    ]
    hasher = hashlib.sha256()
    for display, path in sorted((p.relative_to(root).as_posix(), p) for p in files):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        hasher.update(f"{display}\0{digest}\n".encode())
    return hasher.hexdigest()


def project(package: str, starts: list[Path]) -> tuple[Path, dict[str, Any]] | None:
    """The folder and [tool.toolgen] table of the project that generates `package`, if any."""
    for start in starts:
        for folder in (start, *start.parents):
            candidate = folder / "pyproject.toml"
            if not candidate.is_file():
                continue
            try:
                table = tomllib.loads(candidate.read_text("utf-8")).get("tool", {}).get("toolgen")
            except (OSError, ValueError):
                table = None
            if isinstance(table, dict) and table.get("package", "tools") == package:
                return folder, table
    return None


def stale(package: str, module: Any = None, cwd: Path | None = None) -> str | None:
    """A warning when `package`'s specs are at hand and it was generated from other specs;
    None when it is current, or when nothing says which specs it comes from."""
    module = module if module is not None else sys.modules.get(package)
    generated = getattr(module, "SPEC_SHA256", None)
    location = getattr(module, "__file__", None)
    if not isinstance(generated, str) or not generated or location is None:
        return None
    installed = Path(location).resolve().parent
    found = project(package, [installed, (cwd or Path.cwd()).resolve()])
    if found is None:
        return None
    root, table = found
    specs = (root / str(table.get("specs", "schemas"))).resolve()
    if not specs.is_dir():
        return None
    try:
        current = specs_sha256(specs)
    except OSError:
        return None
    if current == generated:
        return None
    out = (root / str(table.get("out", "generated"))).resolve()
    if installed.parent == out:  # imported from the output folder itself: an editable install
        redo = "run `toolgen generate` in the project, then restart this server"
    else:
        shown = out.relative_to(root) if out.is_relative_to(root) else out
        redo = (
            f"run `toolgen generate && pip install --force-reinstall --no-deps ./{shown}` in "
            f"the project, then restart this server (or install it editable, "
            f"`pip install -e './{shown}[server]'`, and `toolgen generate` is enough)"
        )
    return (
        f"{package} was generated from other specs than {specs} holds now "
        f"(SPEC_SHA256 {generated[:12]}, the specs {current[:12]}): this server serves the "
        f"tools as they were; {redo}"
    )
