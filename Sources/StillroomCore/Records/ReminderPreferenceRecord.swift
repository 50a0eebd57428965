/// Days of the week a reminder may fire on, stored as a bitmask (bit 0 = Sunday … bit 6 = Saturday).
public struct ReminderWeekdays: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let sunday = ReminderWeekdays(rawValue: 1 << 0)
    public static let monday = ReminderWeekdays(rawValue: 1 << 1)
    public static let tuesday = ReminderWeekdays(rawValue: 1 << 2)
    public static let wednesday = ReminderWeekdays(rawValue: 1 << 3)
    public static let thursday = ReminderWeekdays(rawValue: 1 << 4)
    public static let friday = ReminderWeekdays(rawValue: 1 << 5)
    public static let saturday = ReminderWeekdays(rawValue: 1 << 6)

    public static let all: ReminderWeekdays = [.sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday]
    public static let weekdays: ReminderWeekdays = [.monday, .tuesday, .wednesday, .thursday, .friday]
}

/// How a reminder shows itself: a soft chime, or a silent glow of the screen.
public enum ReminderStyle: String, CaseIterable, Hashable, Sendable {
    case chime
    case glow
}

/// The owner's reminder preference (table `reminder_preference`, a single row).
///
/// Off until the owner opts in: the store returns nil until it has been set once.
public struct ReminderPreferenceRecord: Hashable, Sendable {
    public var enabled: Bool
    /// Local time of day, in minutes after midnight (0...1439).
    public var minuteOfDay: Int
    public var weekdays: ReminderWeekdays
    public var style: ReminderStyle
    /// Quiet hours, local minutes after midnight (0...1439); they may wrap past midnight
    /// (start 1320, end 420 = 22:00–07:00). Equal start and end means no quiet hours.
    public var quietStartMinute: Int
    public var quietEndMinute: Int
    public var updatedAt: UnixMilliseconds

    public init(
        enabled: Bool, minuteOfDay: Int, weekdays: ReminderWeekdays, style: ReminderStyle,
        quietStartMinute: Int, quietEndMinute: Int, updatedAt: UnixMilliseconds
    ) {
        self.enabled = enabled
        self.minuteOfDay = minuteOfDay
        self.weekdays = weekdays
        self.style = style
        self.quietStartMinute = quietStartMinute
        self.quietEndMinute = quietEndMinute
        self.updatedAt = updatedAt
    }

    /// Whether quiet hours are set at all.
    public var hasQuietHours: Bool { quietStartMinute != quietEndMinute }
}
