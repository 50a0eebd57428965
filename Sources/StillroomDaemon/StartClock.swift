import EventLoop
import Glibc
import StillroomCore
import SystemCalls

/// The clock of the start timeline: CLOCK_BOOTTIME, the clock the kernel dates a process's start by
/// (proc(5), field 22 of /proc/PID/stat, counts from boot in clock ticks).
enum StartClock {
    static func now() -> UInt64 { SystemClocks.bootNanoseconds() }

    /// When the kernel made this process (to a clock tick, 10 ms on Debian's kernels), or nil when /proc
    /// cannot say: the timeline then counts from main.
    static func exec() -> UInt64? {
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard ticksPerSecond > 0, let bytes = try? Files.readAll("/proc/self/stat", limit: 4096),
              let ticks = StartTimeline.startTicks(procStat: String(decoding: bytes, as: UTF8.self)) else { return nil }
        let (nanoseconds, overflow) = ticks.multipliedReportingOverflow(by: 1_000_000_000 / UInt64(ticksPerSecond))
        return overflow ? nil : nanoseconds
    }
}
