"""Side feature `toolgen catalog`: a static site of the tools (docs/catalog.md).

An index of every tool (grouped by category and namespace, searched with the package's own
search index), a page per tool (parameters, returns, errors, policies, examples,
deprecations, where its spec is), each provider's definition exactly as generated with its
fallbacks and estimated tokens, and, against a previous spec set, what changed and the
version bump it needs. Plain HTML, CSS and a little JavaScript: it works from `file://`,
every spec text is escaped, and the same specs give the same bytes.
"""
