// The SQLiteStore module; see docs/architecture.md.
