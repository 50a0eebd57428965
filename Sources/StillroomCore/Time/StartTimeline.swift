/// Where a start's time went, from the kernel's exec to READY=1: the log's "start:" line.
///
/// A box's boot is judged by when PLAY works, and the daemon's own start is one stage of it. On the host
/// the start is tens of milliseconds; on a Pi or under emulation it can be seconds, and only a breakdown
/// says whether the loader, the card or one of the daemon's steps is the cost. Times are nanoseconds on
/// one clock (the daemon uses CLOCK_BOOTTIME, the clock the kernel dates a process's start by).
public struct StartTimeline: Sendable, Equatable {
    public struct Stage: Sendable, Equatable {
        public let name: String
        public let nanoseconds: UInt64
    }

    public private(set) var stages: [Stage] = []
    /// When the process was made (exec), if known; otherwise the first mark's time.
    public let began: UInt64
    private var last: UInt64

    /// `exec` is when the kernel made the process, or nil when it cannot be read; `main` is when the
    /// daemon's own code began. The time between them (the loader, the libraries, the runtime) is the
    /// first stage, "before main". An exec after main (a clock read wrongly) is taken as unknown.
    public init(exec: UInt64?, main: UInt64) {
        if let exec, exec <= main {
            began = exec
            last = main
            stages = [Stage(name: "before main", nanoseconds: main - exec)]
        } else {
            began = main
            last = main
        }
    }

    /// Ends the stage `name` (no comma in it: the summary separates stages with commas) at `now`. A
    /// clock that went back counts the stage as zero.
    public mutating func mark(_ name: String, at now: UInt64) {
        let length = now >= last ? now - last : 0
        stages.append(Stage(name: name, nanoseconds: length))
        last = max(last, now)
    }

    /// From exec (or main) to the last mark.
    public var total: UInt64 { last - began }

    /// "start: 3480 ms from exec to READY (before main 2200, database 100, …)", in whole milliseconds:
    /// a host start is tens of them, an emulated one tens of thousands.
    public var summary: String {
        let from = stages.first?.name == "before main" ? "exec" : "main"
        let parts = stages.map { "\($0.name) \(Self.milliseconds($0.nanoseconds))" }
        return "start: \(Self.milliseconds(total)) ms from \(from) to READY (\(parts.joined(separator: ", ")))"
    }

    static func milliseconds(_ nanoseconds: UInt64) -> UInt64 { (nanoseconds + 500_000) / 1_000_000 }
}

extension StartTimeline {
    /// The process's start, in clock ticks after boot, from the text of `/proc/PID/stat` (field 22,
    /// proc(5)). The command name (field 2) is in parentheses and may hold spaces and parentheses itself,
    /// so the fields are counted from the last ")". Nil for a text that does not have them.
    public static func startTicks(procStat text: String) -> UInt64? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        // fields[0] is field 3 (the state), so field 22 is fields[19].
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }
}
