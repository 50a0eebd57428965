import CLinuxShims
import FoundationEssentials
import Glibc
import MonotonicTime

/// Reads the kernel's clocks. The loop reads them once per iteration; everything else uses that reading.
public enum SystemClocks {
    /// CLOCK_MONOTONIC now.
    public static func monotonicNow() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(monotonicNanoseconds()))
    }

    /// CLOCK_REALTIME now, as a Date.
    public static func wallNow() -> Date { date(nanoseconds: wallNanoseconds()) }

    static func monotonicNanoseconds() -> Int64 { read(CLOCK_MONOTONIC) }

    /// CLOCK_BOOTTIME in nanoseconds: the clock the kernel dates a process's start by (the daemon's
    /// start timeline).
    public static func bootNanoseconds() -> UInt64 { UInt64(read(CLOCK_BOOTTIME)) }

    /// CLOCK_REALTIME in nanoseconds since 1970 (negative before it: a clock set very wrong).
    static func wallNanoseconds() -> Int64 { read(CLOCK_REALTIME) }

    static func date(nanoseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(nanoseconds / 1_000_000_000) + Double(nanoseconds % 1_000_000_000) / 1e9)
    }

    private static func read(_ clock: clockid_t) -> Int64 {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
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
    /// stored as untrusted. Where adjtimex is refused (the box's unit has ProtectClock=: docs/security.md),
    /// systemd-timesyncd's mark says it: the file it touches at each synchronisation.
    public static func isWallClockSynchronized(timesyncMark: String = "/run/systemd/timesync/synchronized") -> Bool {
        switch stillroom_clock_synchronized() {
        case -1: return access(timesyncMark, F_OK) == 0
        case let state: return state != 0
        }
    }
}
