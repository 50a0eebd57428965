// The ALSAAudio module; see docs/architecture.md.
