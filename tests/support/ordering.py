"""The suite's order under xdist: the known-long tests first, shared between the workers.

xdist's `load` scheduling hands each worker a first chunk of consecutive tests (a quarter of
its share), then refills them from what is left, in collection order. A test of a minute met
last leaves the other core idle that minute; met first, the short tests fill in around it. So
the modules of the tests in LONG run first, whole (`ordered`), the heaviest first, shared out
between the workers' first chunks (not all in the first worker's). Each entry is a test's id without its parameters (all
of them match) and about the seconds it takes in a full run (`--durations`), its order key. A test that comes to take
tens of seconds belongs here; tests/docs/test_long_tests.py checks that each entry names a test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

LONG: dict[str, float] = {
    "tests/docs/test_getting_started.py::test_journeys_one_to_three_your_tools_served_and_checked_in_ci": 80,
    "tests/property/test_fuzz_specs.py::test_what_random_specs_generate_passes_mypy_strict": 20,
    "tests/golden/cases/test_cases.py::test_expected_output_passes_mypy_strict": 25,
    "tests/unit/core/test_write_kill.py::test_kills_after_varied_delays_leave_one_tree": 38,
    "tests/property/test_suite_strategies.py::test_strategies_draw_twenty_valid_arguments_per_group": 31,
    "tests/property/test_names.py::test_arbitrary_names_and_text_generate_working_packages": 28,
    "tests/property/test_fuzz_specs.py::test_lint_never_raises_on_random_specs": 28,
    "tests/functional/cli/test_stale_package.py::test_editable_install_warns_until_regenerated": 27,
    "tests/functional/cli/test_ci_recipes.py::test_the_github_workflow_runs_as_written": 26,
    "tests/functional/cli/test_stale_package.py::test_an_installed_copy_warns_with_the_commands_that_reinstall_it": 22,
    "tests/property/test_fuzz_specs.py::test_generate_never_raises_and_what_it_writes_imports": 22,
    "tests/functional/cli/test_toolgen_wheel.py::test_the_installed_wheel_generates_what_the_checkout_does": 22,
    "tests/functional/cli/test_builtin_anywhere.py::test_the_library_imports_from_the_distribution_alone": 20,
    "tests/golden/breaking/test_breaking.py::test_breaking_output_formats_and_exit_codes": 19,
    "tests/golden/breaking/test_breaking.py::test_a_narrowing_breaks_callers_and_widening_it_back_does_not": 19,
    "tests/functional/cli/test_toolgen_wheel.py::test_the_wheel_carries_the_templates_the_runtime_and_the_spec_schema": 17,
    "tests/unit/providers/test_catalog_definitions.py::test_the_sdks_accept_every_definition_with_examples_namespaces_and_deferred_tools": 15,
    "tests/property/test_layout.py::test_every_generated_file_is_black_stable": 13,
    "tests/unit/runtime/test_repair.py::test_a_truncated_value_is_a_prefix_of_the_text": 12,
    "tests/unit/runtime/test_repair.py::test_a_repair_reads_what_a_strict_reader_reads": 12,
    "tests/functional/serving/test_mcp_serve.py::test_a_cancellation_reaches_a_call_on_another_server_through_the_fleets_store": 12,
    "tests/functional/runtime/test_fleet.py::test_workers_with_the_in_process_store_are_warned": 11,
    "tests/unit/core/test_write_kill.py::test_reads_and_kills_during_100_regenerations": 11,
    "tests/functional/cli/test_benchmarks_smoke.py::test_serve_load_quick": 11,
    "tests/functional/cli/test_benchmarks_smoke.py::test_catalog_quick": 11,
    "tests/functional/serving/test_mcp_tasks.py::test_two_servers_queue_for_workers_and_answer_for_each_others_tasks": 10,
    "tests/functional/serving/test_mcp_serve.py::test_past_the_cap_requests_under_way_go_on_and_a_new_one_is_answered_503": 10,
    "tests/unit/runtime/test_secrets.py::test_contract_output_hides_secrets": 10,
}


def key(nodeid: str) -> str:
    """A test's id without its parameters: what LONG names."""
    return nodeid.partition("[")[0]


def ordered(
    items: Sequence[T], seconds: Sequence[float | None], modules: Sequence[str], workers: int
) -> list[T]:
    """`items` in the order xdist should meet them, `seconds[i]` being item i's LONG figure
    (None: not a long test) and `modules[i]` its module. A module with long tests moves whole
    (its module-scoped fixtures are then made once, as before): the heaviest (the sum of its
    long tests) first, each dealt to the worker with the least so far, into the first chunk
    xdist sends that worker. The other modules follow in their own order."""
    weight: dict[str, float] = {}
    for module, s in zip(modules, seconds, strict=True):
        if s is not None:
            weight[module] = weight.get(module, 0.0) + s
    loads = [0.0] * workers
    dealt: list[list[str]] = [[] for _ in range(workers)]
    for module in sorted(weight, key=lambda m: -weight[m]):
        worker = loads.index(min(loads))
        dealt[worker].append(module)
        loads[worker] += weight[module]
    moved: dict[str, list[T]] = {module: [] for module in weight}
    rest: list[T] = []
    for item, module in zip(items, modules, strict=True):
        (moved[module] if module in moved else rest).append(item)
    chunk = max(len(items) // workers // 4, 2)  # xdist's first chunk per worker (load mode)
    result: list[T] = []
    for worker in range(workers):
        mine = [item for module in dealt[worker] for item in moved[module]]
        fill = max(chunk - len(mine), 0) if worker < workers - 1 else 0
        result += mine + rest[:fill]
        del rest[:fill]
    return result + rest
