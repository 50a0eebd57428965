import StillroomCore

/// Reminder days in words: what `--days` takes, what the protocol carries and what the answers say.
public enum ReminderDays {
    public static let order: [(name: String, day: Weekday)] = [
        ("mon", .monday), ("tue", .tuesday), ("wed", .wednesday), ("thu", .thursday),
        ("fri", .friday), ("sat", .saturday), ("sun", .sunday),
    ]

    /// "all" (or daily, every), "weekdays", "weekends", or names like "mon,tue" (three letters or more of
    /// each); nil for anything else and for no day at all.
    public static func parse(_ text: String) -> ReminderWeekdays? {
        switch text.lowercased() {
        case "all", "daily", "every": return .all
        case "weekdays": return .weekdays
        case "weekends": return [.saturday, .sunday]
        default: break
        }
        var days: ReminderWeekdays = []
        for name in text.lowercased().split(separator: ",") {
            guard let day = order.first(where: { $0.name == name.prefix(3) && name.count >= 3 }) else { return nil }
            days.insert(.of(day.day))
        }
        return days.isEmpty ? nil : days
    }

    /// For people: "every day", or "mon,wed".
    public static func names(_ days: ReminderWeekdays) -> String {
        days == .all ? "every day" : listed(days)
    }

    /// For the wire: text `parse` reads back to the same days.
    static func wireText(_ days: ReminderWeekdays) -> String {
        days == .all ? "all" : listed(days)
    }

    private static func listed(_ days: ReminderWeekdays) -> String {
        order.filter { days.contains(.of($0.day)) }.map(\.name).joined(separator: ",")
    }
}
