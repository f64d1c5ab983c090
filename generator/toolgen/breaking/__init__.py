"""Side feature `toolgen breaking`: the contract diff between two spec sets.

`sources` reads both sides with toolgen's loader (a directory; a git revision, `from_git`; a
generated package, `from_package`) into a `side`, `compare` walks two schemas side by side, `direction` says what a change breaks
for callers (parameters) or consumers (results), `behaviour`, `lifecycle` and `providers`
compare the rest of a tool, `engine` puts it together under the `settings`, and `report`
prints it with the version bump it needs. The rules are one table (`rules`, of `rules_tools` and `rules_schemas`; `categories` holds
their vocabulary).
"""
