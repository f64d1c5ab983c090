"""A module whose import fails: importing runs its code."""

raise RuntimeError("this module cannot be imported")
