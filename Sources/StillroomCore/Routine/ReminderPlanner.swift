/// When the next reminder is due: the chosen time of day, in local time, on a chosen weekday.
///
/// Pure: the time-zone rules are passed in, so DST changes and a new time zone simply give a different
/// answer. A local time that does not exist (the spring-forward gap) moves forward by the gap; one that
/// happens twice (fall-back) is due at the earlier one, and never twice: `after` moves past it.
public enum ReminderPlanner {
    /// The first due instant (unix seconds) strictly after `after` whose local date is after `firedDay`:
    /// the day it last fired and every day before it are over, whatever the clock says now (a box without
    /// a clock chip boots on an older saved time; found by lifesim).
    public static func nextDue(after: Int64, preference: ReminderPreferenceRecord, rules: TimeZoneRules,
                               firedDay: CivilDate? = nil) -> Int64? {
        guard preference.enabled, !preference.weekdays.isEmpty else { return nil }
        let startDay = rules.localDateTime(at: after).date
        // Two weeks and a day: every weekday mask, even when `after` lies before `firedDay` (the clock or
        // the zone moved back past the day it fired; a one-weekday reminder's next is then 8 days on).
        for offset in 0..<15 {
            let day = startDay.adding(days: offset)
            guard preference.weekdays.contains(ReminderWeekdays.of(day.weekday)), firedDay.map({ day > $0 }) ?? true,
                  let local = LocalDateTime(date: day, hour: preference.minuteOfDay / 60, minute: preference.minuteOfDay % 60) else {
                continue
            }
            let due = rules.unixSeconds(for: local, gap: .shiftForward, overlap: .earlier)
            if due > after { return due }
        }
        return nil
    }

    /// Whether `minuteOfDay` lies in the quiet hours (which may run across midnight).
    public static func isQuiet(minuteOfDay minute: Int, preference: ReminderPreferenceRecord) -> Bool {
        guard preference.hasQuietHours else { return false }
        let start = preference.quietStartMinute
        let end = preference.quietEndMinute
        return start < end ? (minute >= start && minute < end) : (minute >= start || minute < end)
    }
}

extension ReminderWeekdays {
    /// The mask bit for one weekday.
    public static func of(_ weekday: Weekday) -> ReminderWeekdays { ReminderWeekdays(rawValue: 1 << weekday.rawValue) }
}
