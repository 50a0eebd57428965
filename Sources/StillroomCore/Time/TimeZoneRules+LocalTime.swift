// Wall-clock readings back to instants. Around a DST change a reading can name no instant (the clock
// jumped over it: a gap) or two (the clock ran through it twice: an overlap); callers choose.

/// What a wall-clock reading names in a zone.
public enum LocalTimeResolution: Hashable, Sendable {
    /// Exactly one instant.
    case unique(Int64)
    /// The clock showed this reading twice (fall back): first on the clock before the change, then after.
    case overlap(earlier: Int64, later: Int64)
    /// The clock skipped this reading (spring forward). `transition` is the instant of the change;
    /// `shiftedForward` reads the time on the clock from before the change, which is the reading moved
    /// forward by the length of the gap (02:30 in a one-hour gap → 03:30).
    case gap(transition: Int64, shiftedForward: Int64)
}

/// How to place a reading that falls in a spring-forward gap.
public enum GapPolicy: Sendable, Hashable {
    /// Move it forward by the length of the gap: 02:30 becomes 03:30 (what a person setting an alarm
    /// for 02:30 would expect: the same time after the clock has moved on).
    case shiftForward
    /// The first instant after the gap: 02:30 becomes 03:00.
    case transitionInstant
}

/// Which instant to take for a reading that occurs twice (fall back).
public enum OverlapPolicy: Sendable, Hashable {
    /// The first occurrence, still on the clock from before the change (summer time in autumn).
    case earlier
    /// The second occurrence, on the clock from after the change.
    case later
}

extension TimeZoneRules {
    /// Every instant at which this zone's clock shows `local`, classified.
    public func resolve(_ local: LocalDateTime) -> LocalTimeResolution {
        let reading = local.secondsSinceLocalEpoch
        // UTC offsets stay within ±26 hours, so every instant showing `reading` lies within two days of it.
        let window: Int64 = 2 * 86_400
        let windowStart = reading.addingSaturating(-window)
        let windowEnd = reading.addingSaturating(window)
        var changes: [(at: Int64, before: Int32, after: Int32)] = []
        var offsets: [Int32] = [utcOffset(at: windowStart)]
        var cursor = windowStart
        while changes.count < 16, let change = nextChange(after: cursor), change <= windowEnd {
            changes.append((change, utcOffset(at: change - 1), utcOffset(at: change)))
            offsets.append(utcOffset(at: change))
            cursor = change
        }
        var instants: [Int64] = []
        for offset in offsets {
            let instant = reading.addingSaturating(-Int64(offset))
            if utcOffset(at: instant) == offset && !instants.contains(instant) { instants.append(instant) }
        }
        instants.sort()
        if instants.count == 1 { return .unique(instants[0]) }
        if let earlier = instants.first, let later = instants.last { return .overlap(earlier: earlier, later: later) }
        for change in changes {
            let onOldClock = reading.addingSaturating(-Int64(change.before))
            let onNewClock = reading.addingSaturating(-Int64(change.after))
            if onOldClock >= change.at && onNewClock < change.at {
                return .gap(transition: change.at, shiftedForward: onOldClock)
            }
        }
        // Unreachable for consistent rules; answer with the plain reading rather than trap.
        return .unique(reading.addingSaturating(-Int64(utcOffset(at: reading))))
    }

    /// The instant at which this zone's clock shows `local`, choosing by `gap` and `overlap` when the
    /// reading names no instant or two.
    public func unixSeconds(for local: LocalDateTime, gap: GapPolicy = .shiftForward,
                            overlap: OverlapPolicy = .earlier) -> Int64 {
        switch resolve(local) {
        case .unique(let instant):
            return instant
        case .overlap(let earlier, let later):
            return overlap == .earlier ? earlier : later
        case .gap(let transition, let shiftedForward):
            return gap == .shiftForward ? shiftedForward : transition
        }
    }
}
