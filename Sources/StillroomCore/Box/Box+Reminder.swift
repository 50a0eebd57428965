/// The reminder inside the box (`ReminderMachine`), with the rules around it that were the daemon's:
///
/// - it is planned in local time: at start, and again whenever the clock is set or the time zone changes;
/// - it follows the player: a reminder waiting for a session to end or pause goes once the player settles
///   in a new phase (Box+Listening.swift) or its recheck comes;
/// - whether it may sound is what the box is doing now: playing, how long paused, the volume after its
///   caps (muted), the night hours of the settings in local time, the output;
/// - dismissing a notice is seeing the reminder's card.
extension Box {
    /// The wall clock in unix seconds, as the reminder plans.
    private func unixSeconds(_ wall: UnixMilliseconds) -> Int64 { wall / 1000 }

    /// What the box is doing, as the reminder sees it.
    func reminderContext(now: MonotonicInstant, wall: UnixMilliseconds) -> ReminderMachine.Context {
        let night = model.settings.isNight(atMinuteOfDay: timeZoneRules.minuteOfDay(at: unixSeconds(wall)))
        let volume = model.settings.volumePolicy.effectiveVolume(headphones: player.headphonesConnected, night: night)
        return ReminderMachine.Context(playing: player.phase == .playing || player.phase == .loading,
                                       pausedFor: listening.pausedSince.map { Int64((now - $0).seconds) },
                                       muted: volume == 0, night: night, outputAvailable: player.outputAvailable)
    }

    /// At start, and on a clock set or a time-zone change (`rules` then the new zone's).
    mutating func planReminder(rules: TimeZoneRules? = nil, now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        if let rules { timeZoneRules = rules }
        return reminderEffects(reminder.replan(now: unixSeconds(wall), rules: timeZoneRules, context: reminderContext(now: now, wall: wall)),
                               now: now, wall: wall)
    }

    mutating func reminderDue(now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        reminderEffects(reminder.timerFired(now: unixSeconds(wall), rules: timeZoneRules, context: reminderContext(now: now, wall: wall)),
                        now: now, wall: wall)
    }

    /// The player settled in a new phase, or the recheck came: a waiting reminder may go now.
    mutating func reminderFollows(now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        reminderEffects(reminder.contextChanged(now: unixSeconds(wall), rules: timeZoneRules,
                                                context: reminderContext(now: now, wall: wall)), now: now, wall: wall)
    }

    /// The owner chose the reminder (it is stored).
    mutating func reminderChosen(_ preference: ReminderPreferenceRecord, now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        reminderEffects(reminder.setPreference(preference, now: unixSeconds(wall), rules: timeZoneRules), now: now, wall: wall)
    }

    /// A notice was dismissed: the reminder's card counts as seen.
    mutating func noticeDismissed() {
        if reminder.cardShowing { reminder.cardSeen() }
    }
}
