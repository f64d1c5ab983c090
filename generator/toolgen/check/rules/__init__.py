"""The semantic check rules, one per module: ID, SEVERITY, SUMMARY (MORE: the other rule IDs it
reports, if any), check(context) -> diagnostics. check/catalogue.py lists them all."""
