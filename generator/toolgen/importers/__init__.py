"""`toolgen import`: specs from tool definitions in other formats (OpenAI, Anthropic, Gemini, MCP, BFCL).

normalize.py turns one definition into a spec-format-v1 tool plus notes; one module per
source format reads that format's files into definitions; names.py keeps names unique
within one import; emit.py writes readable, deterministic YAML.
"""

FORMAT_NAMES = ("openai", "anthropic", "gemini", "mcp", "bfcl")  # kept here so the CLI need not import the readers
