# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Providers: tool calls in each provider's shape read, answers written back in it.

- `answers`: one call's result in each provider's shape, content blocks as each takes them;
- `adapters`: a provider's tool calls dispatched through a registry, answers out (no SDK
  imported).

May import: `calls`, `results` and the leaf modules. Never `serving`.
"""
