// The EventLoop module; see docs/architecture.md.
