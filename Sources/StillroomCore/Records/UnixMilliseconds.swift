// Stored times: wall-clock instants as whole milliseconds since the Unix epoch.
//
// The store never reads a clock; every `now` and every `...At` field is a value the caller read once
// (per loop iteration) and passed in. Wall time may be wrong on a box without an RTC, so records that
// must be ordered reliably carry something else as well (a sequence number, an AUTOINCREMENT id, a
// `clockTrusted` flag).

/// Milliseconds since 1970-01-01T00:00:00Z (CLOCK_REALTIME as read by the caller), as stored in SQLite.
public typealias UnixMilliseconds = Int64
