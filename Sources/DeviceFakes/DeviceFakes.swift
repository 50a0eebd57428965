// The DeviceFakes module; see docs/architecture.md.
