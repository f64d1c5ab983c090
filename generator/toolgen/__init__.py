"""toolgen: a schema-first code generator for the tools that LLM agents call."""

__version__ = "0.1.0"
