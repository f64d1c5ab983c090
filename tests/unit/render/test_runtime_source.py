"""The runtime's facts read from its source are the values its modules hold when imported."""

from __future__ import annotations

import pytest

from toolgen.render import runtime_source
from toolgen.runtime import models
from toolgen.runtime.search import index


def test_the_index_format_is_the_runtime_index_s() -> None:
    assert runtime_source.constant("search/index.py", "FORMAT") == index.FORMAT


@pytest.mark.parametrize("name", ["ArgumentsModel", "InjectedModel", "ResultModel"])
def test_a_base_s_configuration_is_the_imported_class_s(name: str) -> None:
    assert runtime_source.model_config("models.py", name) == dict(
        getattr(models, name).model_config
    )


def test_what_the_source_does_not_say_is_refused() -> None:
    with pytest.raises(LookupError):
        runtime_source.constant("search/index.py", "NO_SUCH_NAME")
    with pytest.raises(LookupError):
        runtime_source.model_config("models.py", "NoSuchModel")
    with pytest.raises(LookupError):  # a subclass of another class: its config is merged
        runtime_source.model_config("models.py", "Exact")
