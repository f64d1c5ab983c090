"""Check that a change to the build's speed changed none of its bytes.

    python benchmarks/same_bytes.py MANIFEST [--tools 1000] [--record]

Builds the seeded synthetic specs (`synthetic.py`) in process, without the build cache,
twice: in one process (TOOLGEN_JOBS=1) and with the tool modules rendered in a forked child
(toolgen/parallel.py). Every file's sha256, and every diagnostic, goes into a manifest:
`--record` writes it to MANIFEST (run it on the commit before the change), else the builds
are compared with MANIFEST and every path that differs is printed (exit status 1).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic import write_specs  # noqa: E402


def manifest(specs: Path, jobs: str) -> dict[str, str]:
    """{path: sha256 of its text} of one build, and its diagnostics under the key ""."""
    from toolgen.config import BuildOptions
    from toolgen.pipeline import build

    os.environ["TOOLGEN_JOBS"] = jobs
    try:
        result = build(specs, BuildOptions(package="bench"))
    finally:
        os.environ.pop("TOOLGEN_JOBS")
    found = {path: hashlib.sha256(text.encode()).hexdigest() for path, text in result.files.items()}
    found[""] = hashlib.sha256("\n".join(str(d) for d in result.diagnostics).encode()).hexdigest()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest", type=Path)
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    os.environ["TOOLGEN_NO_CACHE"] = "1"
    with tempfile.TemporaryDirectory(prefix="toolgen-bytes-") as tmp:
        specs = Path(tmp) / "specs"
        write_specs(specs, args.tools)
        alone, shared = manifest(specs, "1"), manifest(specs, "")
    differ = sorted(p for p in alone.keys() | shared.keys() if alone.get(p) != shared.get(p))
    if differ:  # the two ways of building must agree before anything is compared
        print("one process and with the child differ:", *differ[:20], sep="\n  ")
        return 1
    if args.record:
        args.manifest.write_text(json.dumps(alone, indent=0, sort_keys=True) + "\n", "utf-8")
        print(f"recorded {len(alone) - 1} files' sha256 in {args.manifest}")
        return 0
    before = json.loads(args.manifest.read_text("utf-8"))
    differ = sorted(p for p in before.keys() | alone.keys() if before.get(p) != alone.get(p))
    for path in differ[:50]:
        print("differs:", path or "(the diagnostics)")
    print(f"{len(alone) - 1} files, {len(differ)} differ from {args.manifest}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
