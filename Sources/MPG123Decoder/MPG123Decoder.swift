// The MPG123Decoder module; see docs/architecture.md.
