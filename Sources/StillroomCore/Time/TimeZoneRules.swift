// Local time without ICU: FoundationEssentials has no named time zones, so the box reads the system's
// tzdata (TZif files, RFC 8536) itself. The daemon reads the bytes (/etc/localtime or
// /usr/share/zoneinfo/NAME); everything here is pure.

/// A time zone's complete rules: the transitions listed in a TZif file, then its footer's POSIX rule.
///
/// Instants are POSIX seconds since 1970-01-01T00:00:00Z (what CLOCK_REALTIME counts). Before the first
/// transition the first local time type applies (RFC 8536 §3.2); after the last one the footer rule does
/// (or, without a footer, the last transition's type). A zone with no transitions follows its footer
/// at every instant.
public struct TimeZoneRules: Hashable, Sendable {
    /// The zone's local time types; `transitionTypes` index into it. Never empty.
    public let localTimeTypes: [LocalTimeType]
    /// Instants at which the local time type changes, ascending, in POSIX seconds (leap seconds of
    /// "right/" zones already taken out).
    public let transitions: [Int64]
    /// For each transition, the index of the type that applies from it on.
    public let transitionTypes: [UInt8]
    /// The rule for instants at or after the last transition (all instants when there are none).
    public let footer: POSIXTimeZone?

    /// Builds rules from parts (tests, or rules from elsewhere); `transitions` must ascend and every
    /// type index must be in range, else nil.
    public init?(localTimeTypes: [LocalTimeType], transitions: [Int64], transitionTypes: [UInt8], footer: POSIXTimeZone?) {
        guard !localTimeTypes.isEmpty, transitions.count == transitionTypes.count,
              transitionTypes.allSatisfy({ Int($0) < localTimeTypes.count }),
              zip(transitions, transitions.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        self.init(validTypes: localTimeTypes, transitions: transitions, transitionTypes: transitionTypes, footer: footer)
    }

    init(validTypes: [LocalTimeType], transitions: [Int64], transitionTypes: [UInt8], footer: POSIXTimeZone?) {
        self.localTimeTypes = validTypes
        self.transitions = transitions
        self.transitionTypes = transitionTypes
        self.footer = footer
    }

    /// Rules that are a POSIX TZ string alone (the `TZ` variable's form, "CET-1CEST,M3.5.0,M10.5.0/3").
    public init(posix rule: POSIXTimeZone) {
        var types = [rule.standard]
        if let daylight = rule.daylightSaving { types.append(daylight.type) }
        self.init(validTypes: types, transitions: [], transitionTypes: [], footer: rule)
    }

    /// Coordinated Universal Time: offset 0, no changes. The fallback when no zone file can be read.
    public static let utc = TimeZoneRules(
        validTypes: [LocalTimeType(utcOffset: 0, isDaylightSaving: false, abbreviation: "UTC")],
        transitions: [], transitionTypes: [],
        footer: POSIXTimeZone(text: "UTC0", standard: LocalTimeType(utcOffset: 0, isDaylightSaving: false, abbreviation: "UTC"),
                              daylightSaving: nil))

    // MARK: Instant → local

    /// The local time type in effect at `unixSeconds`.
    public func localTimeType(at unixSeconds: Int64) -> LocalTimeType {
        switch place(unixSeconds) {
        case .footer: footer!.localTimeType(at: unixSeconds)
        case .type(let index): localTimeTypes[index]
        }
    }

    /// Seconds to add to UTC for local time at `unixSeconds` (+3600 for CET).
    public func utcOffset(at unixSeconds: Int64) -> Int32 {
        switch place(unixSeconds) {
        case .footer: footer!.utcOffset(at: unixSeconds)
        case .type(let index): localTimeTypes[index].utcOffset
        }
    }

    /// Whether the zone observes daylight saving time at `unixSeconds` (the TZif `isdst` flag).
    public func isDaylightSaving(at unixSeconds: Int64) -> Bool {
        switch place(unixSeconds) {
        case .footer: footer!.isDaylightSaving(at: unixSeconds)
        case .type(let index): localTimeTypes[index].isDaylightSaving
        }
    }

    /// Minutes after local midnight at `unixSeconds` (the night hours and quiet hours are read in these).
    public func minuteOfDay(at unixSeconds: Int64) -> Int {
        let local = unixSeconds + Int64(utcOffset(at: unixSeconds))
        return Int(((local % 86_400) + 86_400) % 86_400 / 60)
    }

    /// The wall-clock reading at `unixSeconds`.
    public func localDateTime(at unixSeconds: Int64) -> LocalDateTime {
        LocalDateTime(unixSeconds: unixSeconds, utcOffset: utcOffset(at: unixSeconds))
    }

    /// The first instant after `unixSeconds` at which the UTC offset or the DST flag changes (a change
    /// of abbreviation alone is not one); nil when none follows. Reminders re-plan at these instants.
    public func nextChange(after unixSeconds: Int64) -> Int64? {
        let current = state(at: unixSeconds)
        var cursor = unixSeconds
        if let last = transitions.last, unixSeconds < last {
            var index = firstTransition(after: unixSeconds)
            while index < transitions.count {
                if state(at: transitions[index]) != current { return transitions[index] }
                index += 1
            }
            cursor = last
        }
        guard let footer else { return nil }
        // The footer's own changes; a handful of steps at most (it alternates between two states).
        for _ in 0..<4 {
            guard let change = footer.nextChange(after: cursor) else { return nil }
            if state(at: change) != current { return change }
            cursor = change
        }
        return nil
    }

    // MARK: Internals

    /// Where an instant's answer comes from: the footer rule, or one of the listed types.
    private enum Place {
        case footer
        case type(Int)
    }

    @inline(__always)
    private func place(_ unixSeconds: Int64) -> Place {
        guard let last = transitions.last else {
            if footer != nil { return .footer }
            return .type(0)
        }
        if unixSeconds >= last, footer != nil { return .footer }
        let index = firstTransition(after: unixSeconds) - 1
        return .type(index < 0 ? 0 : Int(transitionTypes[index]))
    }

    /// The index of the first transition strictly after `unixSeconds` (`transitions.count` if none).
    @inline(__always)
    private func firstTransition(after unixSeconds: Int64) -> Int {
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) >> 1
            if transitions[middle] <= unixSeconds { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private struct State: Equatable {
        let utcOffset: Int32
        let isDaylightSaving: Bool
    }

    private func state(at unixSeconds: Int64) -> State {
        switch place(unixSeconds) {
        case .footer:
            let rule = footer!
            let isDST = rule.isDaylightSaving(at: unixSeconds)
            return State(utcOffset: isDST ? rule.daylightSaving!.type.utcOffset : rule.standard.utcOffset, isDaylightSaving: isDST)
        case .type(let index):
            return State(utcOffset: localTimeTypes[index].utcOffset, isDaylightSaving: localTimeTypes[index].isDaylightSaving)
        }
    }
}
