# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Contract tests: does an implementation keep the promises of its tool's spec?

For arguments drawn from the spec (hypothesis strategies the generated `testing`
subpackage provides), every call must return a result that the spec's `returns` schema
accepts, or raise `ToolError` with a kind the spec declares, within the deadline the spec
(or the registry) declares. Tools flagged `idempotent` must give the same outcome for the
same arguments whatever ran in between, the spec's examples must run as they say, and the
declared policies must be safe (a cache or a retry only where calling again is). A failing
case is shrunk and reported with the `toolgen call` line that reproduces it.

Stateful tools: a `seed` prepares every registry the checks make (a note to find, a file
to read), and an override may be a function of that registry, drawing an argument from
what exists in it (`lambda registry: st.sampled_from(ids_in(registry))`).

The parts, each a module of its own: terms.py (the contract, its violation, the registry a
check is given), verdict.py (the judge: a call run and its outcome judged), outcomes.py (what
the judge reads of an outcome), checks.py (the checks, under hypothesis) and suite.py
(`ContractTests`, the pytest base class). This module is their public surface.

Part of the test support, not of `_runtime`: it needs hypothesis (and jsonschema, imported
when a check starts), which a package's users need only for testing.
"""

from .checks import (
    check_contract,
    check_examples,
    check_idempotent,
    check_policies,
    check_results,
    check_streams,
    default_settings,
)
from .suite import ContractTests
from .terms import ContractViolation, ToolContract, cli_line
from .terms import Override as Override  # the types of the checks' arguments
from .terms import RegistrySource as RegistrySource
from .terms import Seed as Seed

__all__ = [
    "ContractTests",
    "ContractViolation",
    "ToolContract",
    "check_contract",
    "check_examples",
    "check_idempotent",
    "check_policies",
    "check_results",
    "check_streams",
    "cli_line",
    "default_settings",
]
