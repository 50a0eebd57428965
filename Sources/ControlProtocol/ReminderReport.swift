import StillroomCore

/// The `reminder` answer, built by the daemon and by the CLI from the database when the daemon is down.
///
///     {"enabled": true, "time": "21:30", "days": "mon,tue", "style": "glow", "quiet": "22:00-07:00",
///      "next": "2026-11-03 21:30", "waiting": false, "card": false}
///     {"enabled": false, "next": null, "card": false}
///
/// `days` is "every day" or day names; `quiet` is null without quiet hours. Only the daemon knows the
/// next time it fires (`next`, else null), whether it waits for a session to end (`waiting`) and whether
/// its card is on the screen (`card`); without the daemon `next` is null and the other two are left out.
public struct ReminderReport: Equatable, Sendable {
    public struct Schedule: Equatable, Sendable {
        /// "21:30".
        public var time: String
        public var days: String
        public var style: String
        /// "22:00-07:00", or nil.
        public var quiet: String?
    }

    /// nil when the reminder is off.
    public var schedule: Schedule?
    public var next: String?
    public var waiting: Bool?
    public var card: Bool?

    /// - Parameter preference: as stored; nil or not enabled is off.
    public init(_ preference: ReminderPreferenceRecord?, next: String?, waiting: Bool?, card: Bool?) {
        if let preference, preference.enabled {
            schedule = Schedule(time: Settings.clock(preference.minuteOfDay), days: ReminderDays.names(preference.weekdays),
                                style: preference.style.rawValue,
                                quiet: preference.hasQuietHours
                                    ? "\(Settings.clock(preference.quietStartMinute))-\(Settings.clock(preference.quietEndMinute))" : nil)
            self.waiting = waiting
        } else {
            schedule = nil
            self.waiting = nil
        }
        self.next = schedule == nil ? nil : next // an old due time means nothing once the reminder is off
        self.card = card
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = ["enabled": .bool(schedule != nil), "next": next.map { .string($0) } ?? .null]
        if let schedule {
            fields["time"] = .string(schedule.time)
            fields["days"] = .string(schedule.days)
            fields["style"] = .string(schedule.style)
            fields["quiet"] = schedule.quiet.map { .string($0) } ?? .null
        }
        if let waiting { fields["waiting"] = .bool(waiting) }
        if let card { fields["card"] = .bool(card) }
        return .object(fields)
    }

    public init(json: JSONValue) {
        if json["enabled"]?.boolValue == true {
            schedule = Schedule(time: json["time"]?.stringValue ?? "?", days: json["days"]?.stringValue ?? "every day",
                                style: json["style"]?.stringValue ?? "chime", quiet: json["quiet"]?.stringValue)
        } else {
            schedule = nil
        }
        next = json["next"]?.stringValue
        waiting = json["waiting"]?.boolValue
        card = json["card"]?.boolValue
    }
}
