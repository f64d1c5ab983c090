"""`toolgen import`: specs from tool definitions in other formats (OpenAI, Anthropic, Gemini, MCP, BFCL),
from a running MCP server, and from Python functions.

normalize.py turns one definition into a spec-format-v1 tool plus notes; one module per
source format reads that format's files into definitions (mcp_server.py asks a server for
MCP ones, python.py makes them from functions); names.py keeps names unique within one
import; emit.py writes readable, deterministic YAML.
"""

# Kept here so the CLI need not import the readers: files of definitions, then the live sources
# (a running MCP server, Python functions).
FORMAT_NAMES = ("openai", "anthropic", "gemini", "mcp", "bfcl", "mcp-server", "python")
