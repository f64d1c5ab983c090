"""The catalog shows every text a spec can hold as text: hostile names, descriptions, enum
values, defaults, error meanings, example descriptions and deprecation reasons (markup,
quotes, `</script>`, comments, entities) add no element or attribute to any page, and read
back as written."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.catalog_support import Elements, site

HOSTILE = (
    "<x-evil>",
    "</script><x-evil onclick=alert(1)>",
    '"><img src=x onerror=alert(1)>',
    "' onmouseover='alert(1)",
    "<!-- ",
    " -->",
    "&amp;",
    "&lt;b&gt;",
    "</textarea></style></title>",
    "<svg/onload=alert(1)>",
    "\u2028",
)
INJECTED = {"x-evil", "img", "svg", "b", "style"}
words = st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=8)
hostile = st.lists(st.one_of(st.sampled_from(HOSTILE), words), min_size=1, max_size=5).map("".join)


def _spec(texts: list[str]) -> dict[str, object]:
    description, title, category, prop, meaning, value, example, reason = texts
    return {
        "name": "do_thing",
        "title": title,
        "description": f"Do the thing. {description}",
        "category": f"c{category}",
        "namespace": "things",
        "stability": "deprecated",
        "deprecated": {"reason": f"r{reason}"},
        "errors": {"failed": {"description": f"m{meaning}"}},
        "parameters": {
            "type": "object",
            "properties": {
                f"p{prop}": {
                    "type": "string",
                    "enum": [value],
                    "default": value,
                    "description": f"d{prop}",
                }
            },
        },
        "examples": [{"description": f"e{example}", "arguments": {f"p{prop}": value}}],
    }


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(hostile, min_size=8, max_size=8))
def test_hostile_spec_text_adds_no_element(texts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        specs = Path(folder) / "specs"
        specs.mkdir()
        spec = _spec(texts)
        (specs / "tool.json").write_text(json.dumps(spec), "utf-8")
        files = site(specs)
    for path, html in files.items():
        if not path.endswith(".html"):
            continue
        page = Elements(html)
        assert not INJECTED & set(page.names()), path
        assert not [a for _, attrs in page.tags for a in attrs if a.startswith("on")], path
        assert page.names().count("script") == (2 if path == "index.html" else 1), path
        # the playground's one textarea holds the first example's arguments, as text
        assert page.names().count("textarea") == (0 if path == "index.html" else 1), path
    tool = " ".join(Elements(files["tools/do_thing.html"]).text)
    for shown in (
        spec["description"],
        spec["title"],
        f"m{texts[4]}",
        f"e{texts[6]}",
        f"d{texts[3]}",
    ):
        assert shown in tool
    data = json.loads(Elements(files["index.html"]).script("search-data"))
    assert [t["name"] for t in data["tools"]] == ["do_thing"]
