"""A tool's result model, worked out once per distinct `returns` where its name is all that
differs: a spec set's tools often return the same shape (`{id, ok, count}`, a list of strings).

A result that makes one class (its own: no nested class, no definition class) reads nothing
of its tool but that class's name and the names already taken in the module (which a
field's Python name must not be). Such a model is kept by the repr of `returns` (which
tells 1, 1.0 and True apart) and taken again under the next tool's class name once its
fields' Python names come out the same against that module's names. Any other result is
mapped as it is.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from toolgen.ir import ModelIR
from toolgen.lower.annotation import ANY_TYPE
from toolgen.lower.typemap import TypeMapper
from toolgen.naming import field_name, unique

# repr of `returns` -> its one model (named for the tool it was first mapped for), its imports
Results = dict[str, tuple[ModelIR, frozenset[str]]]


def result_models(mapper: TypeMapper, returns: Any, text: str, results: Results) -> list[ModelIR]:
    """The models of a tool's result, made by a fresh result `mapper` (its prefix the result
    class's name; its imports in `mapper.names`): `text` is the repr of `returns`, `results`
    is shared by the tools of one `lower`."""
    name = mapper.prefix
    found = results.get(text)
    if found is not None:
        model, names = found
        wire = [field_name(f.wire_name) for f in model.fields]
        if unique(wire, mapper.taken) == [f.python_name for f in model.fields]:
            mapper.names |= names
            return [replace(model, class_name=name)]
    if isinstance(returns, dict) and returns.get("type") == "object" and "properties" in returns:
        mapper.object_model(returns, name)
        models = list(mapper.models)
    else:
        root = mapper.annotation(returns, f"{name}Value") if returns is not None else ANY_TYPE
        mapper.names |= root.names
        text_of = repr(root.text) if root.forward else root.text
        models = [*mapper.models, ModelIR(name, None, (), "allow", "result", root=text_of)]
    if len(models) == 1 and not mapper.recursive:
        results[text] = (models[0], frozenset(mapper.names))
    return models
