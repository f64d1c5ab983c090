"""What a schema change breaks, by the direction the data flows.

Parameters are sent by the model or a client and read by the implementation: a change
breaks callers (WIRE) when a call valid before is refused now, and implementations
(SOURCE) when they receive what they never did. Results go the other way: a change breaks
consumers when a result valid now was invalid before. Each change becomes at most one
finding: a rule ID, the message and, where it has a better one than the rule's, a hint.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from toolgen.breaking import changes as c
from toolgen.breaking.lifecycle import early, past, until


@dataclass(frozen=True)
class Verdict:
    rule: str
    message: str
    hint: str | None = None  # None: the rule's own


def path_text(path: tuple[str, ...]) -> str:
    out = ""
    for part in path:
        if part.startswith("["):
            out += part
        else:
            out += f".{part}" if out else part
    return out


def subject(path: tuple[str, ...], parameters: bool) -> str:
    text = path_text(path)
    if parameters:
        return f"parameter '{text}'" if text else "the arguments"
    return f"result field '{text}'" if text else "the result"


def values(items: Any) -> str:
    return (
        ", ".join(json.dumps(v, ensure_ascii=False) for v in items)
        if isinstance(items, list)
        else str(items)
    )


def types(listed: Any) -> str:
    if listed is None:
        return "any"
    return listed if isinstance(listed, str) else " | ".join(listed) if listed else "none"


def typed_text(change: c.Change) -> str:
    """ "(type integer -> number)" for a change of types; "" for other changes."""
    if change.kind not in (c.TYPE_ADDED, c.TYPE_REMOVED, c.NULL_ADDED, c.NULL_REMOVED):
        return ""
    return f"(type {types(change.old)} -> {types(change.new)})"


def transition(old: str, new: str) -> str:
    """ "`maxLength` 100 -> 50" (the keyword once when both sides have it)."""
    if old.startswith("`") and new.startswith("`") and old.split(" ", 1)[0] == new.split(" ", 1)[0]:
        return f"{old} -> {new.split(' ', 1)[1]}"
    return f"{old} -> {new}"


def judge(change: c.Change, parameters: bool, today: date) -> Verdict | None:
    return _parameter(change, today) if parameters else _result(change)


def _parameter(change: c.Change, today: date) -> Verdict | None:
    kind, subj = change.kind, subject(change.path, True)
    typed = typed_text(change)
    if kind == c.PROPERTY_REMOVED:
        if change.deprecated:
            if past(change.sunset, today):
                return Verdict(
                    "PARAM_DELETED_AFTER_SUNSET",
                    f"deprecated {subj} was removed after its sunset ({change.sunset})",
                )
            return Verdict(
                "PARAM_NO_DELETE_BEFORE_SUNSET",
                f"deprecated {subj} was removed {early(change.sunset)}: "
                "calls that send it are refused",
            )
        if change.closed:
            return Verdict(
                "PARAM_NO_DELETE", f"{subj} was removed: calls that send it are now refused"
            )
        return Verdict(
            "PARAM_NO_DELETE_OPEN",
            f"{subj} was removed: calls that send it still validate, but the "
            "generated class has no field for it",
        )
    if kind == c.PROPERTY_RENAMED:
        if change.sunset is None:
            taken = "the old name is taken until the spec says otherwise"
        elif past(change.sunset, today):
            taken = f"{until(change.sunset)} has passed: the old name is refused"
        else:
            taken = f"the old name is taken until {until(change.sunset)}"
        return Verdict(
            "PARAM_RENAMED",
            f"parameter '{change.name}' is now {subj} (`x-renamed-from`): {taken}; "
            "implementations read it under its new name",
        )
    if kind == c.PROPERTY_SWAPPED:
        new = path_text(change.path).rsplit(".", 1)[-1]
        return Verdict(
            "PARAM_SAME_JSON_NAME",
            f"parameter '{change.name}' was removed and {subj} added with the same schema: a rename "
            f"that refuses the calls that send '{change.name}'",
            f"declare `x-renamed-from: {{name: {change.name}, sunset: YYYY-MM-DD}}` on '{new}'",
        )
    if kind == c.ALIAS_REMOVED:
        if past(change.sunset, today):
            return Verdict(
                "PARAM_DELETED_AFTER_SUNSET",
                f"the old name '{change.name}' of {subj} is no longer "
                f"declared, after its sunset ({change.sunset})",
            )
        return Verdict(
            "PARAM_NO_DELETE_BEFORE_SUNSET",
            f"the old name '{change.name}' of {subj} (`x-renamed-from`) "
            f"was dropped {early(change.sunset)}: calls that send it are "
            "refused",
        )
    if kind == c.PROPERTY_ADDED:
        if change.required:
            extra = (
                " (its default does not help: a required key must be sent)"
                if change.has_default
                else ""
            )
            return Verdict(
                "PARAM_NO_NEW_REQUIRED",
                f"new {subj} is required: calls written before do not send it{extra}",
            )
        return Verdict("PARAM_ADDED", f"new optional {subj}")
    if kind == c.REQUIRED_ADDED:
        return Verdict(
            "PARAM_NO_OPTIONAL_TO_REQUIRED",
            f"{subj} is now required: calls that leave it out are refused",
        )
    if kind == c.REQUIRED_REMOVED:
        return Verdict(
            "PARAM_REQUIRED_TO_OPTIONAL",
            f"{subj} is now optional: the implementation may receive no value",
        )
    if kind == c.TYPE_REMOVED:
        lost = change.keyword or ("any value" if change.new == "nothing" else "some types")
        return Verdict("PARAM_SAME_TYPE", f"{subj} no longer accepts {lost} {typed}")
    if kind == c.NULL_REMOVED:
        return Verdict("PARAM_NULLABLE_NO_REMOVE", f"{subj} no longer accepts null {typed}")
    if kind == c.BRANCH_REMOVED:
        return Verdict(
            "PARAM_SAME_TYPE",
            f"{subj}: a branch of `{change.keyword}` was removed ({change.old} -> "
            f"{change.new}): values only it accepted are refused",
        )
    if kind in (c.TYPE_ADDED, c.NULL_ADDED):
        gained = "null" if kind == c.NULL_ADDED else change.keyword or "any value"
        return Verdict("PARAM_TYPE_WIDENED", f"{subj} now also accepts {gained} {typed}")
    if kind == c.BRANCH_ADDED:
        return Verdict(
            "PARAM_TYPE_WIDENED",
            f"{subj}: a new branch of `{change.keyword}` ({change.old} -> "
            f"{change.new}) accepts values the implementation never received",
        )
    if kind == c.ENUM_REMOVED:
        if change.old is None:
            return Verdict(
                "PARAM_ENUM_VALUE_NO_DELETE",
                f"{subj} now takes only {values(change.new)} (`{change.keyword}` added)",
            )
        return Verdict(
            "PARAM_ENUM_VALUE_NO_DELETE", f"{subj} no longer accepts {values(change.old)}"
        )
    if kind == c.ENUM_ADDED:
        if change.new is None:
            return Verdict(
                "PARAM_ENUM_VALUE_ADDED",
                f"{subj} is no longer limited to {values(change.old)} (`{change.keyword}` removed)",
            )
        return Verdict(
            "PARAM_ENUM_VALUE_ADDED", f"{subj} accepts the new value(s) {values(change.new)}"
        )
    if kind == c.CONSTRAINT and change.effect != c.WIDER:
        how = (
            "values valid before are refused now"
            if change.effect == c.NARROWER
            else "values valid before may be refused now"
        )
        return Verdict(
            "PARAM_CONSTRAINT_NO_TIGHTEN", f"{subj}: {transition(change.old, change.new)}: {how}"
        )
    if kind == c.CLOSED:
        verb = "accept" if not change.path else "accepts"
        return Verdict("PARAM_NO_CLOSE_OBJECT", f"{subj} no longer {verb} undeclared keys")
    if kind == c.DEFAULT:
        old = json.dumps(change.old, ensure_ascii=False)
        if change.new is c.MISSING:
            return Verdict(
                "PARAM_SAME_DEFAULT",
                f"{subj} lost its default {old}: calls that leave it out now mean something else",
            )
        new = json.dumps(change.new, ensure_ascii=False)
        return Verdict(
            "PARAM_SAME_DEFAULT",
            f"{subj}: default {old} -> {new}: calls that leave it out now mean something else",
        )
    if kind == c.DEPRECATED:
        return Verdict(
            "PARAM_DEPRECATED",
            f"{subj} is now deprecated" + (f" (sunset {change.sunset})" if change.sunset else ""),
        )
    return None


def _result(change: c.Change) -> Verdict | None:
    kind, subj = change.kind, subject(change.path, False)
    typed = typed_text(change)
    if kind == c.PROPERTY_REMOVED:
        if change.required:
            return Verdict(
                "RESULT_FIELD_NO_DELETE",
                f"required {subj} was removed: consumers that read it break",
            )
        return Verdict(
            "RESULT_OPTIONAL_FIELD_REMOVED",
            f"optional {subj} was removed: the generated result class loses it",
        )
    if kind == c.PROPERTY_ADDED and change.closed:
        return Verdict(
            "RESULT_FIELD_ADDED",
            f"{subj} was added to an object that was closed: consumers checking "
            "against the old schema refuse it",
        )
    if kind == c.REQUIRED_REMOVED:
        return Verdict(
            "RESULT_NO_REQUIRED_TO_OPTIONAL",
            f"{subj} is now optional: consumers that expect it may not find it",
        )
    if kind in (c.TYPE_ADDED, c.NULL_ADDED):
        gained = "null" if kind == c.NULL_ADDED else change.keyword or "any value"
        return Verdict(
            "RESULT_TYPE_NO_WIDEN", f"{subj} may now be {gained} {typed}: consumers never saw it"
        )
    if kind == c.BRANCH_ADDED:
        return Verdict(
            "RESULT_TYPE_NO_WIDEN",
            f"{subj}: a new branch of `{change.keyword}` ({change.old} -> "
            f"{change.new}): consumers never saw its values",
        )
    if kind == c.ENUM_ADDED and not change.extensible:
        if change.new is None:
            return Verdict(
                "RESULT_ENUM_VALUE_NO_ADD",
                f"{subj} is no longer limited to {values(change.old)} (`{change.keyword}` removed)",
            )
        return Verdict(
            "RESULT_ENUM_VALUE_NO_ADD",
            f"{subj} may now be {values(change.new)}: consumers never saw that value",
        )
    if kind == c.CONSTRAINT and change.effect != c.NARROWER:
        return Verdict(
            "RESULT_CONSTRAINT_NO_LOOSEN",
            f"{subj}: {transition(change.old, change.new)}: consumers "
            "may rely on the old constraint",
        )
    if kind == c.OPENED:
        return Verdict(
            "RESULT_OBJECT_NO_OPEN", f"{subj} now allows undeclared keys (it was closed)"
        )
    return None
