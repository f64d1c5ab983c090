"""The rules of `toolgen breaking` about a tool's schemas: its parameters (what callers send)
and its results (what consumers read). breaking/rules.py puts them in the table."""

from __future__ import annotations

from toolgen.breaking.categories import BEHAVIOR, ERROR, INFO, SOURCE, WARNING, WIRE, Rule

# parameters: what callers send
PARAMETERS: tuple[Rule, ...] = (
    Rule(
        "PARAM_NO_DELETE",
        WIRE,
        ERROR,
        "A parameter of a closed object is not removed: calls that send it are refused.",
        "keep it, marked `deprecated: true` with an `x-sunset` date; or rename it with `x-renamed-from`",
    ),
    Rule(
        "PARAM_NO_DELETE_OPEN",
        SOURCE,
        ERROR,
        "A parameter of an open object is not removed: calls still validate, but the generated class loses the field.",
        "keep it, marked `deprecated: true` with an `x-sunset` date",
    ),
    Rule(
        "PARAM_NO_DELETE_BEFORE_SUNSET",
        WIRE,
        ERROR,
        "A deprecated parameter (or the old name of a renamed one) is not removed before its sunset (or without one).",
        "keep it until the day after its sunset (`x-sunset`, or the `sunset` of `x-renamed-from`)",
    ),
    Rule(
        "PARAM_DELETED_AFTER_SUNSET",
        WIRE,
        INFO,
        "A deprecated parameter (or an old name) removed after its sunset: allowed.",
        "nothing to do: the callers were told",
    ),
    Rule(
        "PARAM_RENAMED",
        SOURCE,
        WARNING,
        "A parameter renamed with `x-renamed-from`: the runtime takes the old "
        "name until the sunset, but implementations read the argument under its new name.",
        "rename the attribute in the implementations; remove `x-renamed-from` after its sunset, not before",
    ),
    Rule(
        "PARAM_SAME_JSON_NAME",
        WIRE,
        ERROR,
        "A parameter keeps its key: a property removed and one added with the same schema is a rename.",
        "declare `x-renamed-from: {name: OLD, sunset: YYYY-MM-DD}` on the new property",
    ),
    Rule(
        "PARAM_NO_NEW_REQUIRED",
        WIRE,
        ERROR,
        "A new parameter is optional: calls written before do not send it (toolgen requires a required key even "
        "when it has a default).",
        "leave it out of `required` and give it a `default`",
    ),
    Rule(
        "PARAM_ADDED",
        SOURCE,
        INFO,
        "A new optional parameter: implementations receive an argument they do not read yet.",
        "read the new argument in the implementation",
        adds=True,
    ),
    Rule(
        "PARAM_NO_OPTIONAL_TO_REQUIRED",
        WIRE,
        ERROR,
        "An optional parameter stays optional: calls that leave it out are refused.",
        "keep it optional, with a `default`",
    ),
    Rule(
        "PARAM_REQUIRED_TO_OPTIONAL",
        SOURCE,
        WARNING,
        "A required parameter made optional: implementations may now receive no value (its default, or None).",
        "check that the implementation handles the missing value",
    ),
    Rule(
        "PARAM_SAME_TYPE",
        WIRE,
        ERROR,
        "A parameter accepts every type it accepted (`type`, `anyOf`/`oneOf` branches).",
        "accept the old type too (a list of types, or another `anyOf` branch)",
    ),
    Rule(
        "PARAM_NULLABLE_NO_REMOVE",
        WIRE,
        ERROR,
        "A parameter that accepted null still does.",
        "keep `null` in its type",
    ),
    Rule(
        "PARAM_TYPE_WIDENED",
        SOURCE,
        WARNING,
        "A parameter accepts a new type (`integer` -> `number`, `+null`, a new branch): implementations may not "
        "handle it.",
        "check that the implementation handles the new type",
    ),
    Rule(
        "PARAM_ENUM_VALUE_NO_DELETE",
        WIRE,
        ERROR,
        "A parameter accepts every `enum` value it accepted (and an `enum` or `const` is not introduced or changed).",
        "keep the value; deprecate it in the description",
    ),
    Rule(
        "PARAM_ENUM_VALUE_ADDED",
        SOURCE,
        WARNING,
        "A parameter accepts a new `enum` value: an implementation that matches every value may not handle it.",
        "handle the new value in the implementation",
    ),
    Rule(
        "PARAM_CONSTRAINT_NO_TIGHTEN",
        WIRE,
        ERROR,
        "A parameter's constraints do not tighten (bounds, lengths, counts, `multipleOf`, `uniqueItems`, `pattern`, "
        "`format`, and keywords toolgen cannot compare, such as `not` and `if`).",
        "keep the old constraint, and check the stricter one in the implementation",
    ),
    Rule(
        "PARAM_NO_CLOSE_OBJECT",
        WIRE,
        ERROR,
        "An object parameter that took undeclared keys still does (`additionalProperties`; toolgen closes an "
        "object that declares `properties`).",
        "write `additionalProperties: true`",
    ),
    Rule(
        "PARAM_SAME_DEFAULT",
        WIRE,
        ERROR,
        "An optional parameter keeps its `default`: calls that leave it out would mean something else.",
        "keep the default; add a new parameter for the new behaviour",
    ),
    Rule(
        "PARAM_DEPRECATED",
        BEHAVIOR,
        INFO,
        "A parameter newly marked `deprecated: true`.",
        "name an `x-sunset` date, and say in the description what to send instead",
    ),
)

# results: what consumers read
RESULTS: tuple[Rule, ...] = (
    Rule(
        "RESULT_FIELD_NO_DELETE",
        WIRE,
        ERROR,
        "A required result field is not removed: consumers read it.",
        "keep sending it",
    ),
    Rule(
        "RESULT_OPTIONAL_FIELD_REMOVED",
        SOURCE,
        ERROR,
        "An optional result field is not removed: the generated result class loses the attribute.",
        "keep it in `returns`, even if the tool stops sending it",
    ),
    Rule(
        "RESULT_NO_REQUIRED_TO_OPTIONAL",
        WIRE,
        ERROR,
        "A required result field stays required: consumers expect it.",
        "keep it required",
    ),
    Rule(
        "RESULT_TYPE_NO_WIDEN",
        WIRE,
        ERROR,
        "A result does not take a new type (`integer` -> `number`, `+null`, a new `anyOf` branch): consumers "
        "never saw it.",
        "add a new field of the new type instead",
    ),
    Rule(
        "RESULT_ENUM_VALUE_NO_ADD",
        WIRE,
        ERROR,
        "A result `enum` gets no new value (unless the old schema said `x-extensible-enum: true`).",
        "mark the enum `x-extensible-enum: true` first, so consumers know to expect new values",
    ),
    Rule(
        "RESULT_CONSTRAINT_NO_LOOSEN",
        WIRE,
        WARNING,
        "A result's constraints do not loosen (bounds, lengths, counts, `pattern`, `format`, ...): consumers may rely "
        "on them.",
        "keep the old constraint, or tell consumers first",
    ),
    Rule(
        "RESULT_FIELD_ADDED",
        WIRE,
        ERROR,
        "No field is added to a result object that was closed (`additionalProperties: false`): consumers "
        "checking against the old schema refuse it.",
        "add fields only to open result objects",
    ),
    Rule(
        "RESULT_OBJECT_NO_OPEN",
        WIRE,
        ERROR,
        "A closed result object stays closed: consumers checking against the old schema refuse undeclared keys.",
        "keep `additionalProperties: false`; declare the fields a new version needs",
    ),
)
