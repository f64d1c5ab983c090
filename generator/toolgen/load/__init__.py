"""Stage 1, load: spec files -> documents with source maps, split into tool entries; `$ref` bundling."""
