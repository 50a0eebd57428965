/// The reminder's behaviour: when to fire, whether it may sound, and what waits for whom.
///
/// Rules (docs/routine.md):
/// - Off until the owner opts in.
/// - Never interrupts a session: due while playing, it waits until playback ends, or is paused for
///   `pauseLongEnough`, then fires.
/// - When it cannot sound (quiet hours, muted, night display, no output, or the glow style), it is a
///   silent glow and a card on the idle screen that stays until seen.
/// - Missed while the box was off (or while the clock was wrong): shown as a card, silently, if less than
///   `missedGrace` late; older ones are dropped, and so is one that came due before the reminder was set.
/// - Never fires twice for one local day.
public struct ReminderMachine: Equatable, Sendable {
    public static let missedGrace: Int64 = 30 * 60
    public static let pauseLongEnough: Int64 = 2 * 60

    /// What the box is doing, as far as the reminder cares.
    public struct Context: Equatable, Sendable {
        public var playing: Bool
        /// Seconds the current pause has lasted (nil: not paused).
        public var pausedFor: Int64?
        public var muted: Bool
        public var night: Bool
        public var outputAvailable: Bool

        public init(playing: Bool = false, pausedFor: Int64? = nil, muted: Bool = false, night: Bool = false,
                    outputAvailable: Bool = true) {
            self.playing = playing
            self.pausedFor = pausedFor
            self.muted = muted
            self.night = night
            self.outputAvailable = outputAvailable
        }
    }

    public enum Effect: Equatable, Sendable {
        /// Arm the wall-clock timer for this instant (unix seconds); nil: disarm.
        case schedule(at: Int64?)
        /// Play the soft chime at its fixed low level.
        case chime
        /// Glow the screen gently and put the card on the idle screen.
        case glow
        /// Remember the local day it fired, so it never fires twice that day (persist it).
        case firedOn(CivilDate)
        /// Check again at this instant (a paused session may become "paused long enough").
        case recheck(at: Int64)
    }

    public private(set) var preference: ReminderPreferenceRecord?
    public private(set) var due: Int64?
    /// A due reminder waiting for a session to end or pause.
    public private(set) var waiting = false
    /// The card on the idle screen ("Time for your practice"), until seen.
    public private(set) var cardShowing = false
    public private(set) var firedDay: CivilDate?
    /// The due one was missed (the box was off, the clock was wrong): when it goes, it goes silently.
    var missedWaiting = false

    public init(preference: ReminderPreferenceRecord?, firedDay: CivilDate?) {
        self.preference = preference
        self.firedDay = firedDay
    }

    /// At start-up, or after a clock jump or a time-zone change: replan, and show a reminder that was
    /// missed by less than the grace period.
    public mutating func replan(now: Int64, rules: TimeZoneRules, context: Context) -> [Effect] {
        guard let preference, preference.enabled else {
            due = nil
            waiting = false
            missedWaiting = false
            return [.schedule(at: nil)]
        }
        // A reminder due in the last 30 minutes that did not fire (the box was off, the clock was wrong) —
        // but only one due after it was set: set at 21:50 for 21:30, it was said to be next due tomorrow,
        // and a restart must agree.
        if !waiting, let missed = ReminderPlanner.nextDue(after: max(now - Self.missedGrace - 1, setAt(preference, now: now)),
                                                          preference: preference, rules: rules, firedDay: firedDay), missed <= now {
            // Missed: it sounds no more, but it waits for a session like any other.
            due = missed
            missedWaiting = true
            return fireIfFree(now: now, rules: rules, context: context)
        }
        if waiting { return fireIfFree(now: now, rules: rules, context: context) }
        missedWaiting = false
        due = nextDue(now: now, rules: rules)
        return [.schedule(at: due)]
    }

    /// The wall-clock timer fired.
    public mutating func timerFired(now: Int64, rules: TimeZoneRules, context: Context) -> [Effect] {
        guard let due, now >= due else { return replan(now: now, rules: rules, context: context) }
        return fireIfFree(now: now, rules: rules, context: context)
    }

    /// Playback changed (ended, paused, resumed): a waiting reminder may go now.
    public mutating func contextChanged(now: Int64, rules: TimeZoneRules, context: Context) -> [Effect] {
        guard waiting else { return [] }
        return fireIfFree(now: now, rules: rules, context: context)
    }

    /// The owner saw the card (pressed a control on the idle screen, or dismissed it).
    public mutating func cardSeen() { cardShowing = false }

    /// The owner changed the reminder.
    public mutating func setPreference(_ preference: ReminderPreferenceRecord?, now: Int64, rules: TimeZoneRules) -> [Effect] {
        self.preference = preference
        waiting = false
        missedWaiting = false
        cardShowing = false
        due = nextDue(now: now, rules: rules)
        return [.schedule(at: due)]
    }

    // MARK: Steps

    /// When the preference was last changed, in unix seconds. A time after `now` was written under a clock
    /// since set back; it cannot tell what came due after it, so it holds nothing back.
    private func setAt(_ preference: ReminderPreferenceRecord, now: Int64) -> Int64 {
        let seconds = preference.updatedAt / 1000
        return seconds > now ? Int64.min / 2 : seconds
    }

    private func nextDue(now: Int64, rules: TimeZoneRules) -> Int64? {
        guard let preference else { return nil }
        return ReminderPlanner.nextDue(after: now, preference: preference, rules: rules, firedDay: firedDay)
    }

    private mutating func fireIfFree(now: Int64, rules: TimeZoneRules, context: Context) -> [Effect] {
        if context.playing {
            waiting = true
            return [.schedule(at: nil)]
        }
        if let paused = context.pausedFor, paused < Self.pauseLongEnough {
            waiting = true
            return [.schedule(at: nil), .recheck(at: now + Self.pauseLongEnough - paused)]
        }
        var effects = fire(now: now, rules: rules, context: context, silently: missedWaiting)
        // The next one is planned and kept: the timer's next firing is then an ordinary due, one that
        // waits for a session and may sound (it was "missed", silent and not waiting, every later day).
        due = nextDue(now: now, rules: rules)
        effects.append(.schedule(at: due))
        return effects
    }

    private mutating func fire(now: Int64, rules: TimeZoneRules, context: Context, silently: Bool) -> [Effect] {
        guard let preference else { return [] }
        let local = rules.localDateTime(at: due ?? now)
        waiting = false
        missedWaiting = false
        due = nil
        firedDay = local.date
        cardShowing = true
        let minute = rules.localDateTime(at: now).hour * 60 + rules.localDateTime(at: now).minute
        let mayChime = !silently && preference.style == .chime && !context.muted && !context.night && context.outputAvailable
            && !ReminderPlanner.isQuiet(minuteOfDay: minute, preference: preference)
        return [mayChime ? .chime : .glow, .firedOn(local.date)]
    }
}
