"""Side feature: handwritten implementations against the generated interfaces (conformance, scaffolding)."""
