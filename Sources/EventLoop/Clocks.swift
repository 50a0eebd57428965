import CLinuxShims
import FoundationEssentials
import Glibc
import StillroomCore

/// Reads the kernel's clocks. The loop reads them once per iteration; everything else uses that reading.
public enum SystemClocks {
    /// CLOCK_MONOTONIC now.
    public static func monotonicNow() -> MonotonicInstant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
    }

    /// CLOCK_REALTIME now, as a Date.
    public static func wallNow() -> Date {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Date(timeIntervalSince1970: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }
}

extension timespec {
    init(nanoseconds: UInt64) {
        self.init(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}

extension SystemClocks {
    /// Whether the kernel considers the wall clock synchronised (adjtimex: not TIME_ERROR). A Pi without
    /// an RTC boots with a wrong clock until NTP (systemd-timesyncd) sets it; until then wall times are
    /// stored as untrusted.
    public static func isWallClockSynchronized() -> Bool {
        stillroom_clock_synchronized() != 0
    }
}
