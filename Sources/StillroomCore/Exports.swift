// Every user of the core computes with monotonic instants, so the core hands its own module on rather than
// making each file import it twice.
@_exported import MonotonicTime
