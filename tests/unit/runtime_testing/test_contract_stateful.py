"""Stateful tools under the contract kit: a seed makes the state, an override draws from it.

tests/data/stateful/specs/notes.yaml (create_note; get_note and delete_note, which fail with
`not_found` for an id no note has) is generated once into a temp folder, and implemented here in
memory. A drawn id is random text, which no note has: without help, the checks only ever run
the `not_found` path, and a bad result on the found path passes every example. With a seed
(two notes made through create_note on every fresh registry) and an override drawing `id` from
the notes that exist, the found path runs, and its bad result is caught, shrunk and replayed.
This is the example of docs/testing.md ("Stateful tools").
"""

from __future__ import annotations

import importlib
import unittest
from collections import Counter
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st

from tests.support.generation import REPO, generate, imported

SPECS = REPO / "tests" / "data" / "stateful" / "specs"
PACKAGE = "stateful_notes"
# Deterministic and quick: the same draws on every run, no database, no explain phase.
SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=40,
    phases=[p for p in Phase if p is not Phase.explain],
)
SEEDED = [("Groceries", "eggs, milk"), ("Ideas", "")]  # the notes of every fresh registry


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("stateful")
    generate(SPECS, out, PACKAGE)
    with imported(out, PACKAGE) as package:
        importlib.import_module(f"{PACKAGE}.testing")  # the package's `testing` (the contract kit)
        yield package


class Store:
    """Notes in memory; ids are given in order, so the same calls make the same ids."""

    def __init__(self) -> None:
        self.notes: dict[str, dict[str, str]] = {}
        self.made = 0

    def add(self, title: str, body: str) -> str:
        self.made += 1
        note_id = f"note-{self.made}"
        self.notes[note_id] = {"title": title, "body": body}
        return note_id

    def ids(self) -> list[str]:
        return list(self.notes)


def implementations(
    notes: ModuleType, store: Store, counts: Counter[str], *, planted: bool = False
) -> list[Any]:
    """create_note, get_note and delete_note over `store`; `counts` tells the paths that ran.
    `planted`: get_note's found path returns a note without its body (the spec requires it)."""
    create, get, delete = (
        importlib.import_module(f"{notes.__name__}.tools.{n}")
        for n in ("create_note", "get_note", "delete_note")
    )

    def found(note_id: str) -> dict[str, str]:
        if note_id not in store.notes:
            counts["not_found"] += 1
            raise notes.ToolError("not_found", f"no note has the id {note_id!r}")
        counts["found"] += 1
        return store.notes[note_id]

    class CreateNote(create.CreateNoteTool):  # type: ignore[misc, name-defined]
        def run(self, arguments: Any) -> Any:
            return create.CreateNoteResult(id=store.add(arguments.title, arguments.body))

    class GetNote(get.GetNoteTool):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            self.store = store  # what the override reads: registry["get_note"].store

        def run(self, arguments: Any) -> Any:
            note = found(arguments.id)
            if planted:
                return {"id": arguments.id, "title": note["title"]}
            return get.GetNoteResult(id=arguments.id, **note)

    class DeleteNote(delete.DeleteNoteTool):  # type: ignore[misc, name-defined]
        def run(self, arguments: Any) -> Any:
            found(arguments.id)
            del store.notes[arguments.id]
            return delete.DeleteNoteResult(deleted=arguments.id)

    return [CreateNote(), GetNote(), DeleteNote()]


def factory(notes: ModuleType, counts: Counter[str], *, planted: bool = False) -> Callable[[], Any]:
    """The registry source: a fresh registry over a fresh, empty store for every example."""
    return lambda: notes.build_registry(*implementations(notes, Store(), counts, planted=planted))


def seed(registry: Any) -> None:
    """The state each example starts from, made through the tools themselves."""
    for title, body in SEEDED:
        registry.invoke("create_note", {"title": title, "body": body})


def existing_id(registry: Any) -> st.SearchStrategy[str]:
    """An id of a note in this example's registry, or (to keep the not_found path) any text."""
    return st.sampled_from(registry["get_note"].store.ids()) | st.text(min_size=1)


def test_a_seed_and_an_override_drawn_from_it_run_the_found_path(notes: ModuleType) -> None:
    counts: Counter[str] = Counter()
    for tool in ("get_note", "delete_note"):
        notes.testing.check_contract(
            factory(notes, counts),
            notes.testing.contract(tool),
            seed=seed,
            overrides={"id": existing_id},
            settings=SETTINGS,
        )
    assert counts["found"] >= 20 and counts["not_found"] >= 5, counts  # both paths ran, often
    notes.testing.check_contract(
        factory(notes, counts), notes.testing.contract("create_note"), seed=seed, settings=SETTINGS
    )


def test_a_bad_result_on_the_found_path_is_caught_shrunk_and_reproducible(
    notes: ModuleType,
) -> None:
    counts: Counter[str] = Counter()
    caught = []
    for _ in range(2):  # the same violation twice: nothing depends on luck or on earlier examples
        with pytest.raises(notes.testing.ContractViolation) as exc:
            notes.testing.check_results(
                factory(notes, counts, planted=True),
                notes.testing.contract("get_note"),
                seed=seed,
                overrides={"id": existing_id},
                settings=SETTINGS,
            )
        caught.append(exc.value)
    violation = caught[0]
    assert (violation.tool, violation.check, violation.problem) == (
        "get_note",
        "results",
        "invalid_result",
    )
    assert (
        violation.calls == caught[1].calls == ({"id": "note-1"},)
    )  # shrunk to the first seeded note
    text = str(violation)
    assert "'body' is a required property" in text
    assert text.splitlines()[-2:] == [
        '  toolgen call get_note \'{"id": "note-1"}\'',
        "  (on a registry prepared by the seed: prepare it the same way first)",
    ]
    # The reproduction: a fresh registry, seeded, then the call: the registry's own check refuses it.
    registry = factory(notes, counts, planted=True)()
    seed(registry)
    result = registry.call("get_note", violation.arguments)
    assert not result.ok and result.failure.kind == "invalid_result"


def test_without_the_override_only_not_found_runs_and_the_bad_result_passes(
    notes: ModuleType,
) -> None:
    counts: Counter[str] = Counter()
    # Seeded, but drawn ids are random text that no note has: the planted bug is never reached.
    notes.testing.check_results(
        factory(notes, counts, planted=True),
        notes.testing.contract("get_note"),
        seed=seed,
        settings=SETTINGS,
    )
    assert counts["found"] == 0 and counts["not_found"] >= 20, counts


def test_contract_tests_seed_and_overrides_hooks(notes: ModuleType) -> None:
    """The pytest class as docs/testing.md shows it (its test methods called directly here)."""
    counts: Counter[str] = Counter()
    seeded: list[str] = []

    class TestNotes(notes.testing.ContractTests):  # type: ignore[misc, name-defined]
        settings = SETTINGS

        def seed(self, tool: str, registry: Any) -> None:
            seeded.append(tool)
            seed(registry)

        def overrides(self, tool: str) -> dict[str, Any]:
            if tool in ("get_note", "delete_note"):
                return {"id": existing_id}
            return {}

    def outcome(test: Callable[..., None], source: Any, tool: str) -> str:
        try:
            test(source, tool)
        except unittest.SkipTest as skipped:  # what pytest reports as skipped
            return f"skipped: {skipped}"
        return "passed"

    suite = TestNotes()
    outcomes = {
        (test.__name__, tool): outcome(test, factory(notes, counts), tool)
        for tool in notes.TOOL_NAMES
        for test in (
            suite.test_policies,
            suite.test_results,
            suite.test_idempotent,
            suite.test_examples,
        )
    }
    assert outcomes == {
        **{
            ("test_policies", tool): f"skipped: {tool} declares no cache or retry"
            for tool in notes.TOOL_NAMES
        },
        **{("test_results", tool): "passed" for tool in notes.TOOL_NAMES},
        ("test_idempotent", "create_note"): "skipped: create_note is not flagged idempotent",
        ("test_idempotent", "get_note"): "passed",
        ("test_idempotent", "delete_note"): "skipped: delete_note is not flagged idempotent",
        ("test_examples", "create_note"): "passed",
        ("test_examples", "get_note"): "passed",  # its example: not_found, on a seeded registry
        ("test_examples", "delete_note"): "skipped: delete_note's spec has no examples",
    }
    assert counts["found"] >= 20 and set(seeded) == set(notes.TOOL_NAMES)
    with pytest.raises(notes.testing.ContractViolation) as caught:
        suite.test_results(factory(notes, counts, planted=True), "get_note")
    assert caught.value.calls == ({"id": "note-1"},)
