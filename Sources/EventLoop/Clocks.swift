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
    /// stored as untrusted.
    public static func isWallClockSynchronized() -> Bool {
        stillroom_clock_synchronized() != 0
    }
}
