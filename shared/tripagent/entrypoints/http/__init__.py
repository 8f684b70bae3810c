"""HTTP entrypoints: one Powertools router per function, the error mapping and the caller context."""
