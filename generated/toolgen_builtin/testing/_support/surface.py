# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The public surface of a generated package's `testing/`, as data: what its template binds.

Plain tuples that import nothing, so that the generator reads them when it renders
`testing/__init__.py` without importing hypothesis (which the other modules here need).
facade.py's `TestingFacade` has each function of `FUNCTIONS`; contract.py exports each name
of `CONTRACT_NAMES`.
"""

from __future__ import annotations

# Names `testing/__init__.py` re-exports from contract.py.
CONTRACT_NAMES = (
    "ContractViolation",
    "ToolContract",
    "check_contract",
    "check_examples",
    "check_idempotent",
    "check_policies",
    "check_results",
    "check_streams",
)
# `TestingFacade` methods bound as the module's functions, by tool name.
FUNCTIONS = ("contract", "arguments_json", "arguments", "result_json", "result")
# `testing/__init__.py`'s `__all__`: the above, the contract of every tool (`CONTRACTS`), and
# `ContractTests`, the pytest base class bound to them.
TESTING_ALL = tuple(sorted(("CONTRACTS", "ContractTests", *CONTRACT_NAMES, *FUNCTIONS)))
