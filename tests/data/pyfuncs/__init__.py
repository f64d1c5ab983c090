"""Functions that `toolgen import --from python` turns into specs (tests/unit/importers/test_import_python.py).

One module per docstring style, one of functions it refuses, one that cannot be imported.
"""
