// The StillroomDaemon module; see docs/architecture.md.
