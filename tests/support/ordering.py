"""The suite's order under xdist: the known-long tests first, shared between the workers.

xdist's `load` scheduling hands each worker a first chunk of consecutive tests (a quarter of
its share), then refills them from what is left, in collection order. A test of a minute met
last leaves the other core idle that minute; met first, the short tests fill in around it. So
the modules of the tests in LONG run first, whole (`ordered`), the heaviest first, shared out
between the workers' first chunks (not all in the first worker's). Each entry is a test's id
without its parameters and the seconds of its set-up and call in a full run, all its cases
together (`--durations` of full runs of 2026-11-28 with the corpus; only their order and sums
matter). A test that comes to take tens of
seconds belongs here; tests/docs/test_long_tests.py checks that each entry names a test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

LONG: dict[str, float] = {
    "tests/docs/test_getting_started.py::test_journeys_one_to_three_your_tools_served_and_checked_in_ci": 49,
    "tests/property/test_suite_strategies.py::test_strategies_draw_twenty_valid_arguments_per_group": 25,
    "tests/unit/importers/test_normalize.py::test_every_corpus_record_imports_to_specs_lint_accepts": 21,
    "tests/functional/serving/test_mcp_serve.py::test_a_cancelled_call_is_cancelled_on_the_server": 21,
    "tests/unit/providers/test_corpus_providers.py::test_every_corpus_tool_imports_and_lowers": 18,
    "tests/functional/serving/test_mcp_tasks.py::test_a_worker_killed_mid_call": 12,
    "tests/unit/providers/test_corpus_providers.py::test_every_corpus_tool_has_a_definition_each_provider_accepts": 11,
    "tests/docs/test_getting_started.py::test_journey_four_the_builtin_library_in_another_project": 11,
    "tests/property/test_fuzz_specs.py::test_what_random_specs_generate_passes_mypy_strict": 14,
    "tests/functional/serving/test_mcp_serve.py::test_a_cancellation_reaches_a_call_on_another_server_through_the_fleets_store": 10,
    "tests/functional/cli/test_ci_recipes.py::test_the_github_workflow_runs_as_written": 10,
    "tests/functional/cli/test_benchmarks_smoke.py::test_tasks_quick": 10,
    "tests/golden/cases/test_cases.py::test_expected_output_passes_mypy_strict": 17,
    "tests/functional/serving/test_mcp_tasks_killed.py::test_tasks_survive_workers_killed_at_every_point": 13,
    "tests/functional/serving/test_mcp_serve.py::test_past_the_cap_requests_under_way_go_on_and_a_new_one_is_answered_503": 9,
    "tests/property/test_validation_differential.py::test_corpus_sample_agrees_with_jsonschema": 8,
    "tests/property/test_fuzz_specs.py::test_lint_never_raises_on_random_specs": 12,
    "tests/functional/cli/test_stale_package.py::test_editable_install_warns_until_regenerated": 8,
    "tests/functional/cli/test_benchmarks_smoke.py::test_serve_load_quick": 8,
    "tests/property/test_strategies.py::test_corpus_sample_draws_valid_arguments": 7,
    "tests/property/test_fuzz_specs.py::test_generate_never_raises_and_what_it_writes_imports": 7,
    "tests/functional/serving/test_mcp_serve.py::test_a_kept_connection_left_idle_is_closed": 7,
    "tests/functional/serving/test_mcp_serve.py::test_a_cancelled_call_stops": 7,
    "tests/functional/cli/test_benchmarks_smoke.py::test_catalog_quick": 7,
    "tests/unit/core/test_write_kill.py::test_kills_after_varied_delays_leave_one_tree": 6,
    "tests/unit/check/test_meta_schema.py::test_fast_path_agrees_with_jsonschema_on_the_whole_corpus": 6,
    "tests/property/test_strategies.py::test_every_tool_draws_valid_arguments_and_results": 6,
    "tests/property/test_names.py::test_arbitrary_names_and_text_generate_working_packages": 6,
    "tests/property/test_layout.py::test_no_generated_file_goes_to_black": 6,
    "tests/functional/serving/test_mcp_serve.py::test_a_client_slow_to_send_its_request_is_cut_off": 6,
    "tests/functional/serving/test_mcp_conformance.py::test_server_scenario": 6,
    "tests/functional/runtime/test_fleet.py::test_workers_with_the_in_process_store_are_warned": 6,
    "tests/functional/cli/test_stale_package.py::test_an_installed_copy_warns_with_the_commands_that_reinstall_it": 6,
    "tests/unit/runtime/test_store.py::test_a_task_record_is_forgotten_when_it_expires": 5,
    "tests/unit/core/test_write_kill.py::test_reads_and_kills_during_100_regenerations": 5,
    "tests/functional/serving/test_mcp_tasks.py::test_two_servers_queue_for_workers_and_answer_for_each_others_tasks": 5,
    "tests/functional/serving/test_mcp_client.py::test_over_stdio_approvals_questions_streams_and_cancellation": 5,
    "tests/functional/builtin/test_builtin_limits.py::test_a_cpu_loop_is_stopped_at_its_cpu_limit": 4,
    "tests/functional/builtin/test_builtin_browser.py::test_the_contract_kit_finds_every_result_valid_or_a_declared_error": 4,
    "tests/docs/test_readme.py::test_the_served_quickstart_answers_the_client_block": 4,
    "tests/docs/test_readme.py::test_contract_tests_block_runs_against_the_quickstart_class": 4,
}


def key(nodeid: str) -> str:
    """A test's id without its parameters: what LONG names."""
    return nodeid.partition("[")[0]


def figures(nodeids: Sequence[str]) -> list[float | None]:
    """Each item's LONG figure for `ordered`: on the first case of a long test only (its
    figure counts all its cases), None on the others and on every other test."""
    seen: set[str] = set()
    found: list[float | None] = []
    for nodeid in nodeids:
        name = key(nodeid)
        found.append(LONG.get(name) if name not in seen else None)
        seen.add(name)
    return found


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
