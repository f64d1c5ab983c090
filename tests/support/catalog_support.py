"""A small spec set for the catalog's tests (nesting, `$ref`s, a deferred tool, errors,
policies, a deprecation), and the catalog of a specs folder built in process."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from toolgen.catalog.command import build_site
from toolgen.config import Config

SPECS = {
    "people.yaml": """\
tools:
  - name: find_customer
    title: Find a customer
    description: >-
      Find customers by name or email. Returns the matching customers; fails with not_found
      when none matches.
    category: sales
    namespace: crm
    timeout_s: 5
    retry: {attempts: 3, backoff_s: 0.5}
    rate_limit: {calls: 10, per_s: 60}
    errors:
      not_found: {description: No customer matches the query, retryable: true}
    parameters:
      type: object
      properties:
        query: {type: string, minLength: 1, description: A name or an email address}
        limit: {type: integer, minimum: 1, maximum: 50, default: 10, description: Most customers returned}
        address: {$ref: "#/$defs/address"}
      required: [query]
      $defs:
        address:
          type: object
          description: Where the customer lives
          properties:
            city: {type: string, description: "The city's name, e.g. Lyon"}
            street: {type: string, description: "House number first, e.g. 12 rue Blanche"}
          required: [city]
    returns:
      type: object
      properties:
        customers:
          type: array
          items:
            type: object
            properties:
              id: {type: string, description: The customer's id}
            required: [id]
      required: [customers]
    examples:
      - description: By email
        arguments: {query: ada@example.com}
        result: {customers: [{id: c1}]}
  - name: merge_customers
    description: Merge two customer records into one. Returns the id of the record kept.
    category: sales
    namespace: crm
    defer: true
    flags: [requires_approval]
    parameters:
      type: object
      properties:
        keep: {type: string, description: The id of the record kept}
        remove: {type: string, description: The id of the record deleted}
      required: [keep, remove]
    returns:
      type: object
      properties:
        kept: {type: string, description: The id of the record kept}
      required: [kept]
""",
    "weather.yaml": """\
name: get_weather
description: Get the current weather for a city. Returns the temperature in degrees.
category: weather
stability: deprecated
deprecated: {reason: Use the forecast service}
sunset: "2099-01-01"
parameters:
  type: object
  properties:
    location: {type: string, description: "City and country, e.g. Paris, France"}
    unit: {type: string, enum: [celsius, fahrenheit], default: celsius, description: Temperature unit}
  required: [location]
returns:
  type: object
  properties:
    temperature: {type: number, description: Degrees in the unit asked for}
  required: [temperature]
""",
}


def config(specs: Path) -> Config:
    root = specs.parent
    return Config(
        specs=specs,
        out=root / "out",
        package="shop",
        implementations=None,
        templates=None,
        root=root,
    )


def site(specs: Path, ref: str | None = None) -> dict[str, str]:
    """The catalog's files for a specs folder; fails the test when it cannot be built."""
    files = build_site(config(specs), ref)
    assert isinstance(files, dict), f"the catalog was not built: exit {files}"
    return files


class Elements(HTMLParser):
    """The start tags of a page, with their attributes, and its text, as a browser's parser
    splits them (what an injection would have to add)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self._after: list[str] = []  # the text right after each start tag
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._after.append("")

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._after:
            self._after[-1] += data

    def names(self) -> list[str]:
        return [tag for tag, _ in self.tags]

    def texts(self, tag: str) -> list[str]:
        """The text right after each start tag `tag` (up to the next start tag), stripped."""
        return [
            text.strip()
            for (name, _), text in zip(self.tags, self._after, strict=True)
            if name == tag
        ]

    def script(self, element_id: str) -> str:
        """The text of the element with that id (a `<script>`'s content is one data run)."""
        index = next(i for i, (_, attrs) in enumerate(self.tags) if attrs.get("id") == element_id)
        return self._after[index]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
