# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Serving: a registry reached over a protocol or through an agent framework.

- `server`: a registry as an MCP server on the official SDK (the `server` extra);
- `guard`: the HTTP server's protocol against idle and slow clients (uvicorn's, for `server`);
- `remote`: an MCP server's tools called as the package's types (the `client` extra);
- `frameworks`: a registry's tools as OpenAI Agents SDK, pydantic-ai and LangChain tools.

The only modules that import third-party packages beyond pydantic (each only when used).
May import every other group; nothing imports this one but the generated package's entry
points (`__main__`, `server.py`, `client.py`, the framework functions).
"""
