# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Results: what one call of a tool ends as, and what the spec says of the tool.

- `result`: `ToolInfo` (a tool as its generated module declares it), `ToolResult`,
  `ToolFailure`, `Output`, and how what an implementation did (returned, raised, ran out
  of time) becomes a result, its value checked as exactly as arguments are;
- `content`: the content blocks a result may carry (text, images, audio, documents, links);
- `control`: a call that ends waiting for a person (`Suspend`, the signed `Suspension`
  record a result holds, `resumed()`).

May import: `validation` and the leaf modules `errors`, `types`, `secrets`, `models`.
Never `calls`, `search`, `providers` or `serving` (they read results).
"""
