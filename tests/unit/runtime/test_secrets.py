"""`x-secret` at every depth: no secret value in messages, `to_dict()`, `repr()` or contract-test output.

A property test (derandomized) places random secret values at each kind of position (a
property, array items, `additionalProperties` and `patternProperties` values, `anyOf` and
`oneOf` branches, `allOf`, `$defs` reached by `$ref`, injected values), in calls that fail
there, fail elsewhere, or succeed, and looks for the value in everything a host or a model reads.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support._generated import package

SHORT = {
    "type": "string",
    "maxLength": 4,
    "x-secret": True,
}  # a long secret breaks it: an error there
TOOL = {
    "name": "vault",
    "description": "Secrets everywhere.",
    "injected": {"api_key": {"type": "string", "x-secret": True}, "user": {"type": "string"}},
    "errors": {"denied": {"description": "Refused."}},
    "parameters": {
        "type": "object",
        "$defs": {
            "Key": SHORT,
            "Creds": {"type": "object", "properties": {"pw": SHORT}, "required": ["pw"]},
            "Sealed": {
                "type": "object",
                "x-secret": True,
                "properties": {"code": {"type": "string"}},
            },
        },
        "properties": {
            "token": SHORT,
            "tokens": {"type": "array", "maxItems": 2, "items": SHORT},
            "vault": {"type": "object", "additionalProperties": SHORT},
            "patterned": {
                "type": "object",
                "patternProperties": {"^s_": SHORT},
                "additionalProperties": False,
            },
            "several": {
                "type": "object",
                "patternProperties": {"^a_": SHORT, "^b_": {"type": "integer"}},
            },
            "choice": {"anyOf": [SHORT, {"type": "integer"}]},
            "either": {"oneOf": [{"type": "integer"}, SHORT]},
            "loose": {"anyOf": [SHORT, {}]},
            "merged": {"allOf": [{"type": "object", "properties": {"pw": SHORT}}]},
            "key": {"$ref": "#/$defs/Key"},
            "creds": {"$ref": "#/$defs/Creds"},
            "sealed": {"$ref": "#/$defs/Sealed"},
            "tuple": {"type": "array", "prefixItems": [SHORT]},
            "plain": {"type": "integer"},
        },
    },
}


@pytest.fixture(scope="module")
def p(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with package(tmp_path_factory.mktemp("secrets"), [TOOL]) as generated:
        yield generated


# Where a secret goes: (arguments holding it, the secret's path).
PLACES = {
    "token": lambda s: {"token": s},
    "tokens": lambda s: {"tokens": [s]},
    "tokens-too-many": lambda s: {"tokens": ["a", "b", s]},
    "tokens-wrong-type": lambda s: {"tokens": s},
    "vault": lambda s: {"vault": {"k": s}},
    "patterned": lambda s: {"patterned": {"s_x": s}},
    "several": lambda s: {"several": {"a_x": s}},
    "choice": lambda s: {"choice": s},
    "choice-list": lambda s: {"choice": [s]},
    "either": lambda s: {"either": s},
    "loose": lambda s: {"loose": s},
    "merged": lambda s: {"merged": {"pw": s}},
    "key": lambda s: {"key": s},
    "creds": lambda s: {"creds": {"pw": s}},
    "creds-extra": lambda s: {"creds": {"pw": s, "other": 1}},
    "sealed": lambda s: {"sealed": {"code": s, "x": 1}},
    "tuple": lambda s: {"tuple": [s]},
}
secrets = st.text(st.characters(categories=["L", "N"]), min_size=6, max_size=30).map(
    lambda t: "Zq" + t
)


def outputs_of_a_call(p: ModuleType, arguments: Any) -> list[str]:
    """Everything shown for a call: the error's text, dict and repr, or the model's repr and str."""
    shown: list[str] = []
    for sent in (arguments, __import__("json").dumps(arguments)):
        coerced: list[Any] = []
        try:
            model = p.validate_arguments("vault", sent, on_coerce=coerced.append)
            shown += [repr(model), str(model)]
        except p.ToolArgumentsError as error:
            shown += [str(error), repr(error.to_dict()), repr(error.issues), repr(error)]
        shown += [repr(c) for c in coerced]
    return shown


@settings(
    derandomize=True,
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(secret=secrets, place=st.sampled_from(sorted(PLACES)), broken=st.booleans())
def test_a_secret_at_any_depth_is_never_shown(
    p: ModuleType, secret: str, place: str, broken: bool
) -> None:
    arguments = PLACES[place](secret)
    if broken:
        arguments["plain"] = "not an integer"  # another error beside it
    for text in outputs_of_a_call(p, arguments):
        assert secret not in text, (place, text)


def test_the_places_do_fail_at_the_secret(p: ModuleType) -> None:
    """The property test is not vacuous: each secret makes its call fail (but `loose`, which
    takes any value) and every issue is at the secret's position (the exact check
    finds it where the class cannot: several `patternProperties`, `prefixItems`)."""
    taking_anything = {"loose"}
    for place, make in PLACES.items():
        arguments = make("Zq" + "s" * 20)
        if place in taking_anything:
            assert p.validate_arguments("vault", arguments) is not None
            continue
        with pytest.raises(p.ToolArgumentsError) as caught:
            p.validate_arguments("vault", arguments)
        assert caught.value.issues[0].path.startswith(next(iter(arguments))), place


def test_secret_positions_are_marked_in_the_generated_module(p: ModuleType) -> None:
    module = importlib.import_module(f"{p.__name__}.tools.vault")
    source = Path(module.__file__).read_text("utf-8")
    assert source.count("_types.SECRET") >= 11, source
    args = module.VaultArguments
    assert "SECRET" in repr(
        args.model_fields["tokens"].annotation
    )  # list[Annotated[str, ..., SECRET]]


def test_reprs_hide_secret_and_injected_values(p: ModuleType) -> None:
    module = importlib.import_module(f"{p.__name__}.tools.vault")
    model = p.validate_arguments(
        "vault",
        {
            "token": "abcd",
            "tokens": ["wxyz"],
            "vault": {"k": "qrst"},
            "creds": {"pw": "mnop"},
            "plain": 3,
        },
    )
    shown = repr(model)
    for value in ("abcd", "wxyz", "qrst", "mnop"):
        assert value not in shown and value not in str(model)
    assert "plain=3" in shown and "token=<hidden>" in shown
    injected = module.VaultInjected.model_validate({"api_key": "k-123456", "user": "ada"})
    assert repr(injected) == "VaultInjected(api_key=<hidden>, user=<hidden>)"
    assert model.token == "abcd" and injected.api_key == "k-123456"  # the values themselves stay


@settings(
    derandomize=True,
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(secret=secrets, key=secrets)
def test_tool_error_texts_are_redacted(p: ModuleType, secret: str, key: str) -> None:
    module = importlib.import_module(f"{p.__name__}.tools.vault")

    class Echo(module.VaultTool):  # type: ignore[misc, name-defined]
        def run(self, arguments: Any, injected: Any) -> Any:
            raise p.ToolError(
                "denied", f"refused {arguments.tokens} with {injected.api_key} for {injected.user}"
            )

    result = p.build_registry(Echo()).call(
        "vault",
        {"tokens": [secret[:4]], "vault": {"k": secret[:4]}},
        injected={"api_key": key, "user": "someone-else"},
    )
    assert result.failure.kind == "denied"
    for text in (result.text(), repr(result), repr(result.to_dict()), result.failure.message):
        assert key not in text and "someone-else" not in text
    assert (
        result.failure.message.count("<secret>") == 3
    )  # the token (4 letters: long enough), key, user


def test_contract_output_hides_secrets(p: ModuleType) -> None:
    testing = importlib.import_module(f"{p.__name__}.testing")
    module = importlib.import_module(f"{p.__name__}.tools.vault")
    key = "Zq-the-api-key-42"

    class Leaky(module.VaultTool):  # type: ignore[misc, name-defined]
        def run(self, arguments: Any, injected: Any) -> Any:
            raise RuntimeError(f"leaked {arguments.token} and {injected.api_key}")

    from hypothesis import strategies as hst

    with pytest.raises(testing.ContractViolation) as caught:
        testing.check_results(
            p.build_registry(Leaky()),
            testing.contract("vault"),
            injected={"api_key": key, "user": "ada-lovelace"},
            overrides={"token": hst.just("Zq-token-value")},
            settings=settings(
                max_examples=5, database=None, derandomize=True, report_multiple_bugs=False
            ),
        )
    import traceback

    report = "".join(
        traceback.format_exception(caught.value)
    )  # with the cause and hypothesis's notes
    assert "leaked" in report and "<secret>" in report
    for value in (key, "Zq-token-value", "ada-lovelace"):
        assert value not in report, report
    assert "Zq-token-value" in repr(caught.value.calls) or "token" not in caught.value.arguments


def test_the_model_base_classes_annotations_resolve_at_run_time() -> None:
    """shape.py resolves a generated class's annotations to find where secrets are; one that
    names a class imported only for type checking fails that, and secrets go unredacted."""
    import typing

    from toolgen.runtime import models

    for base in (models.ArgumentsModel, models.ResultModel, models.InjectedModel):
        typing.get_type_hints(base, include_extras=True)
