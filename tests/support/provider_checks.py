"""Offline acceptance checks of provider definitions with the providers' own SDKs.

One function per target (docs/providers.md, "How definitions are checked"). Each returns a list of
problems: empty means the SDK, and our own checks for what the SDK misses, accept it.
No mocks, no network: the SDKs' typed params, wire models and validators.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from functools import cache
from typing import Any

import jsonschema
from pydantic import ValidationError

from tests.support.schema_checks import (  # noqa: F401 - re-exported for the tests
    check_json_schema,
    nesting_depth,
    recursive_refs,
    root_object,
    subschemas,
    typed_dict_problems,
)

OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # OpenAI, Anthropic, Bedrock
GEMINI_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$")  # server limit 64 (the SDK says 128)
GEMINI_PROPERTY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
OPENAI_DESCRIPTION_LIMIT = 1024
OPENAI_STRICT_FORMATS = {
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
}
OPENAI_STRICT_KEYWORDS = frozenset(
    """type properties required additionalProperties items anyOf enum const $ref $defs description title
    pattern format multipleOf maximum exclusiveMaximum minimum exclusiveMinimum minItems maxItems""".split()
)
GEMINI_JSON_KEYWORDS = frozenset(
    """anyOf $ref $defs enum format minimum maximum items prefixItems minItems maxItems additionalProperties
    type required properties title description default""".split()
)
MCP_TOOL_KEYS = {
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "_meta",
    "execution",
}
MCP_ANNOTATION_KEYS = {
    "title",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
}


# -- OpenAI -------------------------------------------------------------------------------------


def check_openai_strict_schema(params: Any) -> list[str]:
    """The Agents SDK's strict normaliser leaves it unchanged, plus what it does not check."""
    from agents.exceptions import UserError
    from agents.strict_schema import ensure_strict_json_schema

    problems: list[str] = []
    try:
        if ensure_strict_json_schema(copy.deepcopy(params)) != params:
            problems.append("strict: schema is not already strict-normalized")
    except (UserError, ValueError, TypeError, KeyError, AssertionError) as exc:
        problems.append(f"strict: {str(exc)[:80]}")
    if not isinstance(params, dict):
        return problems
    problems += root_object(params, "strict")
    if isinstance(params.get("type"), list) or "null" in str(params.get("type")):
        problems.append("strict: nullable root")
    enum_values = properties = 0
    budget = 0
    for path, node in subschemas(params):
        unknown = set(node) - OPENAI_STRICT_KEYWORDS
        if unknown:
            problems.append(f"strict: {path or '/'} has unsupported keywords {sorted(unknown)}")
        if not ({"type", "anyOf", "enum", "const", "$ref"} & set(node)):
            problems.append(f"strict: {path or '/'} has no type")
        kind = node.get("type")
        types: list[Any] = kind if isinstance(kind, list) else [kind]
        if "array" in types and "items" not in node:
            problems.append(f"strict: {path or '/'} array without items")
        if "object" in types and "properties" not in node:
            problems.append(f"strict: {path or '/'} object without properties")
        if "format" in node and node["format"] not in OPENAI_STRICT_FORMATS:
            problems.append(f"strict: {path or '/'} format {node['format']!r}")
        if isinstance(node.get("properties"), dict):
            properties += len(node["properties"])
            budget += sum(len(k) for k in node["properties"])
        if isinstance(node.get("enum"), list):
            enum_values += len(node["enum"])
            budget += sum(len(str(v)) for v in node["enum"])
            if len(node["enum"]) > 250 and sum(len(str(v)) for v in node["enum"]) > 15_000:
                problems.append(f"strict: {path} enum of >250 values longer than 15,000 characters")
        if "const" in node:
            budget += len(str(node["const"]))
    budget += sum(len(k) for k in params.get("$defs") or {})
    if properties > 5000:
        problems.append(f"strict: {properties} properties (limit 5000)")
    if enum_values > 1000:
        problems.append(f"strict: {enum_values} enum values (limit 1000)")
    if budget > 120_000:
        problems.append(f"strict: {budget} characters of names and values (limit 120,000)")
    if nesting_depth(params) > 10:
        problems.append(f"strict: nesting depth {nesting_depth(params)} (limit 10)")
    return problems


def check_openai_chat(tool: Any) -> list[str]:
    from openai.types.chat import ChatCompletionFunctionToolParam

    problems = typed_dict_problems(ChatCompletionFunctionToolParam, tool)
    function = tool.get("function") if isinstance(tool, dict) else None
    if not isinstance(function, dict):
        return problems or ["no function"]
    return problems + _openai_common(function)


def check_openai_responses(tool: Any) -> list[str]:
    """A function tool; or, where tools are deferred, a namespace of them or `tool_search`."""
    from openai.types.responses import FunctionToolParam, NamespaceToolParam, ToolSearchToolParam

    kind = tool.get("type") if isinstance(tool, dict) else None
    if kind == "tool_search":
        return typed_dict_problems(ToolSearchToolParam, tool)
    if kind == "namespace":
        problems = typed_dict_problems(NamespaceToolParam, tool)
        if not OPENAI_NAME.match(str(tool.get("name"))):
            problems.append(f"namespace {tool.get('name')!r} !~ {OPENAI_NAME.pattern}")
        for inner in tool.get("tools") or ():
            problems += [f"{tool.get('name')}: {p}" for p in check_openai_responses(inner)]
        return problems
    problems = typed_dict_problems(FunctionToolParam, tool)
    if not isinstance(tool, dict):
        return problems
    if not isinstance(tool.get("strict"), bool):
        problems.append("responses: strict must be explicit true or false")
    return problems + _openai_common(tool)


def _openai_common(function: dict[str, Any]) -> list[str]:
    problems = []
    if not OPENAI_NAME.match(str(function.get("name"))):
        problems.append(f"name {function.get('name')!r} !~ {OPENAI_NAME.pattern}")
    if len(function.get("description") or "") > OPENAI_DESCRIPTION_LIMIT:
        problems.append("description longer than 1024 characters")
    params = function.get("parameters")
    if params is not None:
        problems += check_json_schema(params, "parameters") + root_object(params, "parameters")
    if function.get("strict") is True:
        problems += check_openai_strict_schema(params)
    return problems


# -- Anthropic ----------------------------------------------------------------------------------


def check_anthropic(tool: Any) -> list[str]:
    """A custom tool (its `input_examples` valid against its `input_schema`, which the SDK does not
    check); or, where tools are deferred, the BM25 tool-search tool."""
    import anthropic
    from anthropic.types import ToolParam, ToolSearchToolBm25_20251119Param

    if is_search_tool(tool):
        return typed_dict_problems(ToolSearchToolBm25_20251119Param, tool)
    problems = typed_dict_problems(ToolParam, tool)
    if not isinstance(tool, dict):
        return problems
    for i, example in enumerate(tool.get("input_examples") or ()):
        errors = list(
            jsonschema.Draft202012Validator(tool.get("input_schema") or {}).iter_errors(example)
        )
        problems += [f"input_examples[{i}]: {e.message}"[:120] for e in errors[:3]]
    if not OPENAI_NAME.match(str(tool.get("name"))):
        problems.append(f"name {tool.get('name')!r} !~ {OPENAI_NAME.pattern}")
    schema = tool.get("input_schema")
    problems += check_json_schema(schema, "input_schema") + root_object(schema, "input_schema")
    if tool.get("strict") is True and isinstance(schema, dict):
        try:
            if anthropic.transform_schema(copy.deepcopy(schema)) != schema:
                problems.append("strict: transform_schema changes the schema")
        except (ValueError, AssertionError, TypeError, KeyError) as exc:
            problems.append(f"strict: transform_schema: {exc}"[:100])
        if recursive_refs(schema):
            problems.append(f"strict: recursive {recursive_refs(schema)}")
    return problems


def anthropic_request_problems(tools: Sequence[dict[str, Any]]) -> list[str]:
    """The per-request limits of strict tool use: 20 strict tools, 24 optional parameters, 16 unions."""
    strict = [t for t in tools if t.get("strict") is True]
    optional = unions = 0
    for tool in strict:
        for _, node in subschemas(tool["input_schema"]):
            if isinstance(node.get("properties"), dict):
                optional += len(set(node["properties"]) - set(node.get("required") or ()))
            if "anyOf" in node or isinstance(node.get("type"), list):
                unions += 1
    problems = []
    if len(strict) > 20:
        problems.append(f"{len(strict)} strict tools (limit 20)")
    if optional > 24:
        problems.append(f"{optional} optional parameters in strict tools (limit 24)")
    if unions > 16:
        problems.append(f"{unions} unions in strict tools (limit 16)")
    return problems


def is_search_tool(tool: Any) -> bool:
    """Anthropic's tool-search tool (a server tool: no input schema of its own)."""
    return isinstance(tool, dict) and str(tool.get("type", "")).startswith("tool_search_tool")


def anthropic_search_problems(tools: Sequence[dict[str, Any]]) -> list[str]:
    """Tool search's rules for one request: a search tool exactly when a tool is deferred, at
    least one tool loaded, and the last tool (where hosts put a cache breakpoint) not deferred."""
    deferred = [t for t in tools if t.get("defer_loading") is True]
    searches = [t for t in tools if is_search_tool(t)]
    problems = []
    if bool(deferred) != bool(searches) or len(searches) > 1:
        problems.append(f"{len(deferred)} deferred tools, {len(searches)} search tools")
    if tools and len(deferred) == len(tools):
        problems.append("every tool is deferred")
    if tools and tools[-1].get("defer_loading") is True:
        problems.append("the last tool is deferred: a cache breakpoint there is refused")
    if any("cache_control" in t for t in deferred):
        problems.append("a deferred tool has a cache breakpoint")
    return problems


# -- Gemini -------------------------------------------------------------------------------------


def check_gemini(declaration: Any) -> list[str]:
    from google.genai import types

    problems: list[str] = []
    try:
        types.Tool.model_validate({"function_declarations": [declaration]})
    except ValidationError as exc:
        problems += [f"{'.'.join(map(str, e['loc']))}:{e['type']}" for e in exc.errors()]
    except Exception as exc:  # noqa: BLE001 - a type list raises AttributeError, not ValidationError
        problems.append(f"{type(exc).__name__}: {exc}")
    if not isinstance(declaration, dict):
        return problems
    if not GEMINI_NAME.match(str(declaration.get("name"))):
        problems.append(f"name {declaration.get('name')!r} !~ {GEMINI_NAME.pattern}")
    if "parameters" in declaration and "parametersJsonSchema" in declaration:
        problems.append("both parameters and parametersJsonSchema")
    if "parametersJsonSchema" in declaration:
        schema = declaration["parametersJsonSchema"]
        problems += check_json_schema(schema, "parametersJsonSchema") + root_object(
            schema, "parametersJsonSchema"
        )
        for path, node in subschemas(schema):
            if unknown := set(node) - GEMINI_JSON_KEYWORDS:
                problems.append(
                    f"parametersJsonSchema{path}: keywords outside the allow-list {sorted(unknown)}"
                )
    if "parameters" in declaration:
        problems += _gemini_openapi_problems(declaration["parameters"])
    return problems


def _gemini_openapi_problems(schema: Any) -> list[str]:
    """What the server refuses and the SDK lets through."""
    problems = []
    if not isinstance(schema, dict) or str(schema.get("type", "")).upper() != "OBJECT":
        problems.append("parameters: root type must be OBJECT")
    for path, node in subschemas(schema):
        if "additionalProperties" in node:
            problems.append(f"parameters{path}: additionalProperties (refused by the Gemini API)")
        if node.get("properties") == {}:
            problems.append(f"parameters{path}: empty properties (refused for OBJECT)")
        if str(node.get("type", "")).upper() == "ARRAY" and "items" not in node:
            problems.append(f"parameters{path}: array without items")
        if "format" in node and node["format"] not in ("enum", "date-time"):
            problems.append(f"parameters{path}: format {node['format']!r}")
        if "type" in node and node["type"] != str(node["type"]).upper():
            problems.append(f"parameters{path}: type {node['type']!r} not upper case")
        for name in node.get("properties") or {}:
            if not GEMINI_PROPERTY.match(name):
                problems.append(
                    f"parameters{path}: property name {name!r} !~ {GEMINI_PROPERTY.pattern}"
                )
    return problems


# -- Bedrock ------------------------------------------------------------------------------------


@cache
def _converse_shape() -> Any:
    import botocore.session

    session = botocore.session.get_session()
    return session.get_service_model("bedrock-runtime").operation_model("Converse").input_shape


def check_bedrock(tool: Any) -> list[str]:
    from botocore.exceptions import ParamValidationError
    from botocore.validate import ParamValidator

    problems: list[str] = []
    params = {
        "modelId": "anthropic.claude",
        "messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "toolConfig": {"tools": [tool]},
    }
    report = ParamValidator().validate(params, _converse_shape())
    if report.has_errors():
        problems.append(str(ParamValidationError(report=report.generate_report())))
    spec = tool.get("toolSpec") if isinstance(tool, dict) else None
    if not isinstance(spec, dict):
        return problems or ["no toolSpec"]
    if not OPENAI_NAME.match(str(spec.get("name"))):
        problems.append(f"name {spec.get('name')!r} !~ {OPENAI_NAME.pattern}")
    schema = (spec.get("inputSchema") or {}).get("json")
    problems += check_json_schema(schema, "inputSchema.json") + root_object(
        schema, "inputSchema.json"
    )
    return problems


# -- MCP ----------------------------------------------------------------------------------------


def check_mcp(tool: Any) -> list[str]:
    from mcp.shared.tool_name_validation import validate_tool_name
    from mcp_types import _v2025_11_25, _v2026_07_28

    problems: list[str] = []
    for label, model in (
        ("wire-2025-11-25", _v2025_11_25.Tool),
        ("wire-2026-07-28", _v2026_07_28.Tool),
    ):
        try:
            model.model_validate(tool)
        except ValidationError as exc:
            problems += [
                f"{label}: {'.'.join(map(str, e['loc']))}:{e['type']}" for e in exc.errors()
            ]
    if not isinstance(tool, dict):
        return problems
    if unknown := set(tool) - MCP_TOOL_KEYS:
        problems.append(f"unknown keys {sorted(unknown)}")
    if unknown := set(tool.get("annotations") or {}) - MCP_ANNOTATION_KEYS:
        problems.append(f"unknown annotation keys {sorted(unknown)}")
    result = validate_tool_name(str(tool.get("name")))
    if not result.is_valid or result.warnings:
        problems.append(f"SEP-986: {result.warnings}")
    # MCP takes JSON Schema 2020-12 whole: combinators may sit at the root, beside `type: object`.
    problems += check_json_schema(tool.get("inputSchema"), "inputSchema") + root_object(
        tool.get("inputSchema"), "inputSchema", combinators=True
    )
    if "outputSchema" in tool:
        problems += check_json_schema(tool["outputSchema"], "outputSchema")
    return problems


def check_mcp_result(result: Any, output_schema: dict[str, Any] | None) -> list[str]:
    """`CallToolResult` as the client models it, and `structuredContent` against `outputSchema`."""
    import mcp.types
    from mcp_types import _v2025_11_25

    problems: list[str] = []
    for model in (mcp.types.CallToolResult, _v2025_11_25.CallToolResult):
        try:
            model.model_validate(result)
        except ValidationError as exc:
            problems += [f"{'.'.join(map(str, e['loc']))}:{e['type']}" for e in exc.errors()]
    if output_schema is not None and not result.get("isError"):
        if "structuredContent" not in result:
            problems.append("structuredContent missing although the tool has an outputSchema")
        else:
            validator = jsonschema.validators.validator_for(output_schema)
            validator.check_schema(output_schema)
            problems += [
                f"structuredContent: {e.message}"
                for e in validator(output_schema).iter_errors(result["structuredContent"])
            ]
    return problems


CHECKS = {
    "openai": check_openai_chat,
    "openai-responses": check_openai_responses,
    "anthropic": check_anthropic,
    "gemini": check_gemini,
    "mcp": check_mcp,
    "bedrock": check_bedrock,
}


def check(provider: str, definition: Any) -> list[str]:
    return CHECKS[provider](definition)
