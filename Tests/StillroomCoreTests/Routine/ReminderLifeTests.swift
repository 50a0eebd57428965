import StillroomCore
import Testing

/// The reminder over months of days, for every weekday pattern, with a person who plays, pauses and
/// mutes, and a box that loses its power now and then; an oracle checks every step:
///
/// - whenever nothing waits, the next due is planned, in the future, on a chosen weekday at the chosen
///   local time, and no chosen day between now and it was passed over (the daemon's timer is armed for it);
/// - every chosen day fires exactly once, on that day, never while a session plays or only briefly pauses;
/// - it chimes exactly when it may (chime style, not muted, not night, not quiet hours, and not missed);
/// - missed while the power was off: a silent card within half an hour, nothing after.
@Suite struct ReminderLifeTests {
    @Test(arguments: [(2026, 3, 1), (2026, 10, 1)]) // both of Berlin's daylight-saving changes inside
    func everyWeekdayPatternFiresOnEveryChosenDayForTwoMonths(year: Int, month: Int, day: Int) throws {
        let berlin = try zone("Europe/Berlin")
        var generator = SplitMix64(seed: UInt64(year * 100 + month))
        for mask in 1...127 {
            // Times that meet the spring gap (02:30), midnight, the evening, and one in the quiet hours.
            let minute = [2 * 60 + 30, 0, 21 * 60 + 15, 7 * 60, 23 * 60 + 59][mask % 5]
            let style: ReminderStyle = mask % 3 == 0 ? .glow : .chime
            var preference = reminder(minute / 60, minute % 60, days: ReminderWeekdays(rawValue: mask), style: style,
                                      quiet: mask % 4 == 0 ? (23 * 60, 6 * 60) : (0, 0))
            let start = at(berlin, year, month, day, 12, 0)
            preference.updatedAt = start * 1000
            var life = ReminderLife(preference: preference, rules: berlin, now: start)
            life.live(days: 60, generator: &generator)
            life.checkEveryChosenDayFiredOnce(days: 60)
        }
    }

    @Test func aRestartBetweenTheFireAndTheNextDueKeepsTheNextDue() throws {
        let berlin = try zone("Europe/Berlin")
        let start = at(berlin, 2026, 11, 2, 12, 0) // a Monday
        var life = ReminderLife(preference: reminder(21, 0, days: [.monday, .thursday]), rules: berlin, now: start)
        life.run(until: at(berlin, 2026, 11, 2, 21, 5))
        #expect(life.fires.map(\.day) == [CivilDate(year: 2026, month: 11, day: 2)!])
        life.restart(at: at(berlin, 2026, 11, 2, 21, 10))
        #expect(life.machine.due == at(berlin, 2026, 11, 5, 21, 0), "after the restart: \(String(describing: life.machine.due))")
        life.run(until: at(berlin, 2026, 11, 9, 22, 0))
        #expect(life.fires.map(\.day.day) == [2, 5, 9])
        #expect(life.fires.map(\.chimed) == [true, true, true])
    }

    /// An RTC-less box booting on an older saved clock, or a zone change westward, moves local time back
    /// past the day it fired: next week's day is still found (it was lost for a one-weekday reminder).
    @Test func aOneWeekdayReminderSurvivesTheClockGoingBackPastItsDay() throws {
        let berlin = try zone("Europe/Berlin")
        for weekday in 0..<7 {
            let days = ReminderWeekdays(rawValue: 1 << weekday)
            var life = ReminderLife(preference: reminder(20, 0, days: days), rules: berlin, now: at(berlin, 2026, 11, 1, 12, 0))
            life.run(until: at(berlin, 2026, 11, 8, 12, 0))
            let fired = try #require(life.fires.last).day
            // Back to the day before it fired, then on: it fires a week after the day it fired.
            let before = berlin.unixSeconds(for: LocalDateTime(date: fired.adding(days: -1), hour: 10, minute: 0)!)
            life.setClock(to: before)
            #expect(life.machine.due == berlin.unixSeconds(for: LocalDateTime(date: fired.adding(days: 7), hour: 20, minute: 0)!),
                    "weekday \(weekday): \(String(describing: life.machine.due))")
            life.run(until: before + 8 * 86_400 + 12 * 3600)
            #expect(life.fires.last?.day == fired.adding(days: 7), "weekday \(weekday): never fired again")
        }
    }

    @Test func aZoneChangeWestwardAfterTheFireNeitherRepeatsNorLosesIt() throws {
        let berlin = try zone("Europe/Berlin")
        let newYork = try zone("America/New_York")
        var life = ReminderLife(preference: reminder(21, 0, days: [.wednesday]), rules: berlin, now: at(berlin, 2026, 11, 4, 12, 0))
        life.run(until: at(berlin, 2026, 11, 4, 23, 30)) // fired Wednesday 21:00 in Berlin; 17:30 in New York
        life.changeZone(to: newYork)
        #expect(life.machine.due == at(newYork, 2026, 11, 11, 21, 0))
        life.run(until: at(newYork, 2026, 11, 12, 0, 0))
        #expect(life.fires.map(\.day.day) == [4, 11])
    }

    @Test func aClockSetForwardPastTheDueShowsACardAndPlansTheNextDay() throws {
        let berlin = try zone("Europe/Berlin")
        var life = ReminderLife(preference: reminder(21, 0), rules: berlin, now: at(berlin, 2026, 11, 4, 12, 0))
        life.setClock(to: at(berlin, 2026, 11, 4, 21, 10)) // time synchronised: ten minutes past it
        #expect(life.fires.map(\.chimed) == [false], "a missed reminder is a silent card")
        #expect(life.machine.due == at(berlin, 2026, 11, 5, 21, 0))
        life.run(until: at(berlin, 2026, 11, 5, 21, 1))
        #expect(life.fires.map(\.chimed) == [false, true])
    }

    /// A clock jump while a session plays: the missed reminder waits for the session too.
    @Test func aMissedReminderFoundWhileASessionPlaysWaitsForItsEnd() throws {
        let berlin = try zone("Europe/Berlin")
        var life = ReminderLife(preference: reminder(21, 0), rules: berlin, now: at(berlin, 2026, 11, 4, 20, 50))
        life.setPerson(ReminderMachine.Context(playing: true))
        life.setClock(to: at(berlin, 2026, 11, 4, 21, 5))
        #expect(life.fires.isEmpty, "fired during the session")
        life.run(until: at(berlin, 2026, 11, 4, 21, 10))
        life.setPerson(ReminderMachine.Context())
        #expect(life.fires.map(\.chimed) == [false])
        #expect(life.machine.due == at(berlin, 2026, 11, 5, 21, 0))
    }
}

/// The daemon's part in miniature: the wall-clock timer and the recheck the machine arms, the fired day
/// it stores, a person's context, a power switch; every fire recorded with what the box was doing.
struct ReminderLife {
    struct Fire {
        var at: Int64
        var day: CivilDate
        var chimed: Bool
        var context: ReminderMachine.Context
        /// It fired while the box started (missed while off).
        var missed: Bool
    }

    var machine: ReminderMachine
    var rules: TimeZoneRules
    var now: Int64
    var timer: Int64?
    var recheck: Int64?
    var storedFiredDay: CivilDate?
    var fires: [Fire] = []
    var person = ReminderMachine.Context()
    var pausedAt: Int64?
    /// Power cuts: (off at, on at), for the oracle.
    var outages: [(off: Int64, on: Int64)] = []
    let preference: ReminderPreferenceRecord

    init(preference: ReminderPreferenceRecord, rules: TimeZoneRules, now: Int64) {
        self.preference = preference
        self.rules = rules
        self.now = now
        machine = ReminderMachine(preference: preference, firedDay: nil)
        apply(machine.replan(now: now, rules: rules, context: context), starting: true)
    }

    var context: ReminderMachine.Context {
        var context = person
        context.pausedFor = pausedAt.map { now - $0 }
        return context
    }

    // MARK: The world's moves

    /// Runs the box's timers up to `end`.
    mutating func run(until end: Int64) {
        while let next = [timer, recheck].compactMap({ $0 }).filter({ $0 <= end }).min() {
            now = max(now, next)
            if next == recheck {
                recheck = nil
                apply(machine.contextChanged(now: now, rules: rules, context: context))
            } else {
                timer = nil
                apply(machine.timerFired(now: now, rules: rules, context: context))
            }
        }
        now = max(now, end)
    }

    /// The person starts, pauses or ends something (`pausedFor` is counted here from the moment).
    mutating func setPerson(_ next: ReminderMachine.Context) {
        pausedAt = next.pausedFor == nil ? nil : (pausedAt ?? now)
        person = next
        person.pausedFor = nil
        apply(machine.contextChanged(now: now, rules: rules, context: context))
    }

    /// The power is cut now and comes back at `on`: the daemon starts from what was stored.
    mutating func powerCut(until on: Int64) {
        outages.append((now, on))
        now = on
        restart(at: on)
    }

    mutating func restart(at time: Int64) {
        now = time
        timer = nil
        recheck = nil
        person = ReminderMachine.Context()
        pausedAt = nil
        machine = ReminderMachine(preference: preference, firedDay: storedFiredDay)
        apply(machine.replan(now: now, rules: rules, context: context), starting: true)
    }

    mutating func setClock(to time: Int64) {
        now = time
        apply(machine.replan(now: now, rules: rules, context: context), starting: true)
    }

    mutating func changeZone(to next: TimeZoneRules) {
        rules = next
        apply(machine.replan(now: now, rules: rules, context: context), starting: true)
    }

    // MARK: The daemon's part

    mutating func apply(_ effects: [ReminderMachine.Effect], starting: Bool = false) {
        var sound: Bool?
        for effect in effects {
            switch effect {
            case .schedule(let at): timer = at
            case .recheck(let at): recheck = at
            case .chime: sound = true
            case .glow: sound = false
            case .firedOn(let day):
                storedFiredDay = day
                fires.append(Fire(at: now, day: day, chimed: sound ?? false, context: context, missed: starting))
            }
        }
        checkThePlan()
    }

    /// Whenever nothing waits: the next due is planned and armed, on a chosen day at the chosen time, and
    /// no chosen day before it was passed over.
    func checkThePlan() {
        guard !machine.waiting else { return }
        guard let due = machine.due else {
            Issue.record("no next due at \(rules.localDateTime(at: now)) (mask \(preference.weekdays.rawValue))")
            return
        }
        #expect(timer == due, "the timer is not armed for the next due")
        #expect(due > now, "the next due is not in the future")
        let local = rules.localDateTime(at: due)
        #expect(preference.weekdays.contains(.of(local.date.weekday)), "due on a day not chosen: \(local)")
        var day = rules.localDateTime(at: now).date
        while day < local.date {
            if preference.weekdays.contains(.of(day.weekday)), day != storedFiredDay, dueInstant(on: day) > now {
                Issue.record("\(day) passed over: next due \(local), now \(rules.localDateTime(at: now))")
            }
            day = day.adding(days: 1)
        }
    }

    func dueInstant(on day: CivilDate) -> Int64 {
        rules.unixSeconds(for: LocalDateTime(date: day, hour: preference.minuteOfDay / 60, minute: preference.minuteOfDay % 60)!,
                          gap: .shiftForward, overlap: .earlier)
    }

    // MARK: A person's days

    /// `days` days from now: on some a session near the reminder's time (some with a pause), some muted or
    /// at night, now and then a power cut around the due.
    mutating func live(days: Int, generator: inout SplitMix64) {
        let first = rules.localDateTime(at: now).date
        for offset in 1...days {
            let date = first.adding(days: offset)
            let due = dueInstant(on: date)
            run(until: rules.unixSeconds(for: LocalDateTime(date: date, hour: 0, minute: 0)!) - 3600 * 3)
            let mood = Int.random(in: 0..<10, using: &generator)
            var day = ReminderMachine.Context(muted: mood == 1, night: mood == 2, outputAvailable: mood != 3)
            setPerson(day)
            if mood >= 7 {
                let cutAt = due - Int64.random(in: 1...20, using: &generator) * 60
                run(until: cutAt)
                powerCut(until: due + Int64.random(in: 5...60, using: &generator) * 60 + 7)
                setPerson(day)
            } else if mood >= 4 {
                let startAt = due - Int64.random(in: 1...25, using: &generator) * 60
                run(until: startAt)
                day.playing = true
                setPerson(day)
                run(until: due + Int64.random(in: 0...5, using: &generator) * 60)
                if mood == 5 {
                    day.playing = false
                    day.pausedFor = 0
                    setPerson(day)
                    run(until: now + Int64.random(in: 1...4, using: &generator) * 60)
                    day.pausedFor = nil
                    day.playing = true
                    setPerson(day)
                }
                run(until: now + Int64.random(in: 1...20, using: &generator) * 60)
                day.playing = false
                setPerson(day)
            }
        }
        run(until: now + 86_400 * 2)
    }

    /// Every chosen day of the run fired once, on that day, as the oracle expects it to have sounded.
    func checkEveryChosenDayFiredOnce(days: Int) {
        var byDay: [CivilDate: [Fire]] = [:]
        for fire in fires { byDay[fire.day, default: []].append(fire) }
        for (day, list) in byDay where list.count > 1 {
            Issue.record("\(day) fired \(list.count) times (mask \(preference.weekdays.rawValue))")
        }
        for fire in fires {
            #expect(!fire.context.playing, "fired while a session played on \(fire.day)")
            #expect(fire.context.pausedFor.map { $0 >= ReminderMachine.pauseLongEnough } ?? true, "fired in a brief pause on \(fire.day)")
            let minute = rules.minuteOfDay(at: fire.at)
            let mayChime = !fire.missed && preference.style == .chime && !fire.context.muted && !fire.context.night
                && fire.context.outputAvailable && !ReminderPlanner.isQuiet(minuteOfDay: minute, preference: preference)
            #expect(fire.chimed == mayChime, "\(fire.day) (mask \(preference.weekdays.rawValue)): chimed \(fire.chimed), may \(mayChime)")
        }
        let start = rules.localDateTime(at: preference.updatedAt / 1000).date
        for offset in 1...days {
            let day = start.adding(days: offset)
            guard preference.weekdays.contains(.of(day.weekday)) else {
                #expect(byDay[day] == nil, "fired on \(day), not a chosen day")
                continue
            }
            let due = dueInstant(on: day)
            let late = outages.first { $0.off < due && $0.on >= due }.map { $0.on - due }
            switch late {
            case nil, .some(...1800):
                #expect(byDay[day]?.count == 1, "\(day) (mask \(preference.weekdays.rawValue)) never fired; late \(String(describing: late))")
                if late != nil { #expect(byDay[day]?.first?.missed == true, "missed while off but not shown as missed") }
            case .some(1802...):
                #expect(byDay[day] == nil, "\(day): fired \(late!) s late, after the grace")
            default: break
            }
        }
    }
}
