# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Validation: a call's arguments (a dict or JSON text) -> the typed Arguments, or the issues.

Owns every step between what a model sent and what an implementation receives:

- `validate`: the entry point (one pydantic-core call on the valid path) and `as_sent` (a
  value as JSON data); `failure`: after a refusal, the declared repairs, then the issues
  explained;
- the limits checked before any parsing (`payload`), the work pydantic-core's pass can do,
  bounded without a walk (`nesting`, `bounds`; `capped`: a class's own arrays capped in a
  copy of its validator, so that a dict for it is read with nothing counted; `failfast`),
  JSON text and what to say when it is broken (`jsontext`), a key sent twice
  (`duplicates`), the repairs of malformed text a spec allows (`repair`; its tokenizer,
  `lenient`; calls glued into one, `glued`), the coercions tried after strict validation
  failed (`coerce`), deprecated tools and renamed parameters (`deprecation`);
- the messages: pydantic's errors as `ArgumentIssue`s (`translate`), what a generated model
  expects at a path (`shape`), the fix for a wrong type (`hints`), nearest names (`suggest`);
- `exact/`: the exact JSON Schema 2020-12 check of what a generated class cannot express.

May import: the leaf modules `errors`, `types`, `secrets`, `models`. Nothing here knows of
results, registries, providers or serving (they import this group, never the reverse).
"""
