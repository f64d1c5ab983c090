"""Each side's tool entries as the spec model reads them (spec/model.py): the rules of
`toolgen breaking` read typed values, interpreted where lint and lowering interpret them.

A current side passed lint, so the strict parse takes it. A previous side may not pass
today's rules (an old revision, a generated package read back as specs): its entry is
parsed leniently, keeping each key that parses beside those kept before it and leaving out
each one that does not, as if it were not written. A key left out compares as absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolgen.spec.model import ToolSpec


def parse(entry: Mapping[str, Any]) -> ToolSpec:
    """The entry's ToolSpec: strictly when it can be, else leniently (see the docstring)."""
    try:
        return ToolSpec.parse(entry)
    except Exception:  # noqa: BLE001 - any shape the format does not promise: go key by key
        pass
    kept: dict[str, Any] = {"name": str(entry.get("name", ""))}
    for key, value in entry.items():
        if key == "name":
            continue
        try:
            ToolSpec.parse({**kept, key: value})
        except Exception:  # noqa: BLE001 - this key is not what the format allows: left out
            continue
        kept[key] = value
    return ToolSpec.parse(kept)
