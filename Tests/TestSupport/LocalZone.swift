import Glibc

/// A POSIX time zone for the daemon under test that puts its local time where a test needs it (a
/// reminder due soon, the night display on) without touching the machine's clock, and the arithmetic to
/// aim at its local minutes.
public struct LocalZone: Sendable {
    /// The `TZ` value, as `<TST>+H:MM:SS` (POSIX offsets count westward).
    public let tz: String
    /// Seconds east of UTC: local = UTC + eastOffset.
    public let eastOffset: Int

    /// A zone in which the local time now is `localSecondOfDay` (seconds after local midnight).
    public init(makingLocalSecondOfDay target: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var offset = (target - Int(now.tv_sec % 86_400) + 86_400) % 86_400
        if offset > 43_200 { offset -= 86_400 }
        eastOffset = offset
        let west = -offset
        let magnitude = abs(west)
        tz = "<TST>\(west < 0 ? "-" : "+")\(magnitude / 3600):\(magnitude % 3600 / 60):\(magnitude % 60)"
    }

    /// Seconds after local midnight at `unixSeconds`.
    public func localSecondOfDay(at unixSeconds: Double) -> Double {
        let local = unixSeconds + Double(eastOffset)
        return local - (local / 86_400).rounded(.down) * 86_400
    }

    /// The first whole local minute starting at least `lead` seconds after `unixSeconds`: when it begins
    /// (unix seconds) and its "HH:MM", as `stillroomctl reminder set` takes it.
    public func minute(after unixSeconds: Double, lead: Double) -> (unixSeconds: Double, clock: String) {
        let local = unixSeconds + Double(eastOffset) + lead
        let start = (local / 60).rounded(.up) * 60
        let minuteOfDay = Int(start - (start / 86_400).rounded(.down) * 86_400) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return (start - Double(eastOffset), "\(two(minuteOfDay / 60)):\(two(minuteOfDay % 60))")
    }

    /// Sets a daemon's reminder for the first whole local minute at least `lead` seconds after its clock
    /// (`wallNow`: the status's `timeWarp.wallTime`), then asks the clock again: if that minute had
    /// already begun when the command returned (a slow machine, a fast warp), the next minute is tried,
    /// so no real-time window has to be met. `set` runs `stillroomctl reminder set CLOCK …` and says
    /// whether it succeeded. Returns the minute set, or nil after `attempts` tries.
    public func setReminder(lead: Double, attempts: Int = 20, wallNow: () -> Double?,
                            set: (String) -> Bool) -> (unixSeconds: Double, clock: String)? {
        for _ in 0..<attempts {
            guard let now = wallNow() else { return nil }
            let due = minute(after: now, lead: lead)
            guard set(due.clock) else { return nil }
            if let after = wallNow(), after < due.unixSeconds { return due }
        }
        return nil
    }
}
