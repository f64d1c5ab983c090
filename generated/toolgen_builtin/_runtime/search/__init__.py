# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Tool search: the analyzer, the BM25F index of a registry's tools and the
`search_tools`/`call_tool` pair a registry holding a deferred tool adds (docs/search.md).

May import: `results`, `validation` and the leaf modules. Never `calls` (`call_tool` gets
the registry's call function when the pair is made), `providers` or `serving`.
"""
