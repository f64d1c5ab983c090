# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The exact JSON Schema 2020-12 check of what a generated class cannot express.

A schema is compiled once into closures (`checker.Checker`, from the parts in `node`, the
assertions in `values` and the applicators in `apply`), and run after the class accepted a
value. `ecma` reads ECMA-262 patterns, `formats` the opt-in `format` assertions.

May import: `..suggest` (nearest names in its messages) and the leaf module `errors`; the
rest of the validation group imports this subpackage, never the reverse.
"""
