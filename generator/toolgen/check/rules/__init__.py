"""The semantic check rules, one per module: ID, SUMMARY, check(context) -> diagnostics."""
