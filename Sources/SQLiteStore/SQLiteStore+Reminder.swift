import StillroomCore

extension SQLiteStore {
    /// The reminder preference, or nil if the owner never set one (reminders are off until they opt in).
    public func reminderPreference() throws(StoreError) -> ReminderPreferenceRecord? {
        try connection.queryFirst("""
            SELECT enabled, minute_of_day, weekdays, style, quiet_start_minute, quiet_end_minute, updated_at
            FROM reminder_preference WHERE id = 1
            """, operation: "reminder.get") { (row) throws(StoreError) -> ReminderPreferenceRecord in
            let styleText = row.text(3)
            guard let style = ReminderStyle(rawValue: styleText) else {
                throw StoreError.store(.invalidData, operation: row.operation, message: "unknown reminder style '\(styleText)'")
            }
            return ReminderPreferenceRecord(
                enabled: row.bool(0), minuteOfDay: row.int(1), weekdays: ReminderWeekdays(rawValue: row.int(2)),
                style: style, quietStartMinute: row.int(4), quietEndMinute: row.int(5), updatedAt: row.int64(6))
        }
    }

    /// Stores the reminder preference (the single row).
    /// - Throws: `constraint` when a minute is outside 0...1439 or the weekdays hold unknown bits.
    public func setReminderPreference(_ preference: ReminderPreferenceRecord) throws(StoreError) {
        try connection.run("""
            INSERT INTO reminder_preference
                (id, enabled, minute_of_day, weekdays, style, quiet_start_minute, quiet_end_minute, updated_at)
            VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (id) DO UPDATE SET
                enabled = excluded.enabled, minute_of_day = excluded.minute_of_day, weekdays = excluded.weekdays,
                style = excluded.style, quiet_start_minute = excluded.quiet_start_minute,
                quiet_end_minute = excluded.quiet_end_minute, updated_at = excluded.updated_at
            """, [
                .bool(preference.enabled), .integer(Int64(preference.minuteOfDay)),
                .integer(Int64(preference.weekdays.rawValue)), .text(preference.style.rawValue),
                .integer(Int64(preference.quietStartMinute)), .integer(Int64(preference.quietEndMinute)),
                .integer(preference.updatedAt),
            ], operation: "reminder.set")
    }
}
