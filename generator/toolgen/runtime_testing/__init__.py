# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Test support of generated packages: hypothesis building blocks and the contract checks.

Copied verbatim into each generated package as `testing/_support/` (never into
`_runtime/`: it needs hypothesis and jsonschema, the package's `testing` extra).

How these modules find the runtime: only through `_link.py`, which re-exports the
runtime names they use. Here, in toolgen's source tree, `_link` imports them from
`toolgen.runtime` (`from ..runtime...`); in a generated package the runtime is the
package's `_runtime/`, two levels up from `testing/_support/`, so the generator writes
`_link.py` with `from ..._runtime...` instead (that prefix is the one difference, same
line numbers). Every other module here uses relative imports of `._link` and its
siblings only, so it runs unchanged in both places and is tested once, from the source.
"""
