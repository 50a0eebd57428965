import Glibc
import StillroomCore
import Testing

/// Real zone rules from the machine's tzdata (the parser takes bytes; the test reads the file).
func zone(_ name: String) throws -> TimeZoneRules {
    guard let file = fopen("/usr/share/zoneinfo/" + name, "rb") else { throw ZoneMissing() }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[..<count]
    }
    return try TimeZoneRules(tzif: bytes)
}

struct ZoneMissing: Error {}

/// Unix seconds of a local wall time in `rules` (for writing expectations).
func at(_ rules: TimeZoneRules, _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Int64 {
    rules.unixSeconds(for: LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute)!)
}

func reminder(_ hour: Int, _ minute: Int, days: ReminderWeekdays = .all, style: ReminderStyle = .chime,
              quiet: (Int, Int) = (0, 0)) -> ReminderPreferenceRecord {
    ReminderPreferenceRecord(enabled: true, minuteOfDay: hour * 60 + minute, weekdays: days, style: style,
                             quietStartMinute: quiet.0, quietEndMinute: quiet.1, updatedAt: 0)
}

@Suite struct ReminderPlannerTests {
    @Test func nextDueIsTodayOrTheNextChosenWeekday() throws {
        let berlin = try zone("Europe/Berlin")
        // Thursday 2026-11-26 20:00 local; reminder 21:30 every day.
        #expect(ReminderPlanner.nextDue(after: at(berlin, 2026, 11, 26, 20, 0), preference: reminder(21, 30), rules: berlin)
                == at(berlin, 2026, 11, 26, 21, 30))
        // After it: tomorrow.
        #expect(ReminderPlanner.nextDue(after: at(berlin, 2026, 11, 26, 21, 30), preference: reminder(21, 30), rules: berlin)
                == at(berlin, 2026, 11, 27, 21, 30))
        // Weekdays only, asked on Friday night: Monday.
        #expect(ReminderPlanner.nextDue(after: at(berlin, 2026, 11, 27, 22, 0), preference: reminder(21, 30, days: .weekdays),
                                        rules: berlin) == at(berlin, 2026, 11, 30, 21, 30))
        // Off, or no days: never.
        var off = reminder(21, 30)
        off.enabled = false
        #expect(ReminderPlanner.nextDue(after: 0, preference: off, rules: berlin) == nil)
        #expect(ReminderPlanner.nextDue(after: 0, preference: reminder(21, 30, days: []), rules: berlin) == nil)
    }

    @Test func springForwardGapMovesForwardAndFallBackFiresOnce() throws {
        let berlin = try zone("Europe/Berlin")
        // 2026-03-29: 02:00 → 03:00. A 02:30 reminder that day is due at 03:30 summer time.
        let gap = ReminderPlanner.nextDue(after: at(berlin, 2026, 3, 29, 0, 0), preference: reminder(2, 30), rules: berlin)
        #expect(gap == at(berlin, 2026, 3, 29, 3, 30))
        // 2026-10-25: 03:00 → 02:00. 02:30 happens twice; due at the first, and the day is then done.
        let first = try #require(ReminderPlanner.nextDue(after: at(berlin, 2026, 10, 25, 0, 0), preference: reminder(2, 30), rules: berlin))
        let day = berlin.localDateTime(at: first).date
        let again = try #require(ReminderPlanner.nextDue(after: first, preference: reminder(2, 30), rules: berlin, firedDay: day))
        #expect(berlin.localDateTime(at: again).date == day.adding(days: 1))
    }

    @Test func aTimeZoneChangeGivesTheSameLocalTimeInTheNewZone() throws {
        let berlin = try zone("Europe/Berlin")
        let newYork = try zone("America/New_York")
        let now = at(berlin, 2026, 11, 26, 12, 0)
        let inBerlin = try #require(ReminderPlanner.nextDue(after: now, preference: reminder(21, 0), rules: berlin))
        let inNewYork = try #require(ReminderPlanner.nextDue(after: now, preference: reminder(21, 0), rules: newYork))
        #expect(inNewYork - inBerlin == 6 * 3600)
    }

    @Test func quietHoursAcrossMidnight() {
        let quiet = reminder(21, 0, quiet: (22 * 60, 7 * 60))
        #expect(ReminderPlanner.isQuiet(minuteOfDay: 23 * 60, preference: quiet))
        #expect(ReminderPlanner.isQuiet(minuteOfDay: 6 * 60, preference: quiet))
        #expect(!ReminderPlanner.isQuiet(minuteOfDay: 21 * 60, preference: quiet))
        #expect(!ReminderPlanner.isQuiet(minuteOfDay: 3 * 60, preference: reminder(21, 0)))
    }
}

@Suite struct ReminderMachineTests {
    let idle = ReminderMachine.Context()

    @Test func firesWithAChimeAtItsTimeAndNeverTwiceADay() throws {
        let berlin = try zone("Europe/Berlin")
        var machine = ReminderMachine(preference: reminder(21, 30), firedDay: nil)
        let due = at(berlin, 2026, 11, 26, 21, 30)
        #expect(machine.replan(now: at(berlin, 2026, 11, 26, 20, 0), rules: berlin, context: idle) == [.schedule(at: due)])
        let effects = machine.timerFired(now: due, rules: berlin, context: idle)
        #expect(effects.first == .chime)
        #expect(effects.contains(.firedOn(CivilDate(year: 2026, month: 11, day: 26)!)))
        #expect(effects.last == .schedule(at: at(berlin, 2026, 11, 27, 21, 30)))
        // A clock jump back to before 21:30 the same day does not fire it again.
        let replanned = machine.replan(now: at(berlin, 2026, 11, 26, 21, 0), rules: berlin, context: idle)
        #expect(replanned == [.schedule(at: at(berlin, 2026, 11, 27, 21, 30))])
    }

    @Test func itNeverInterruptsASessionItWaitsForTheEndOrALongPause() throws {
        let berlin = try zone("Europe/Berlin")
        var machine = ReminderMachine(preference: reminder(21, 30), firedDay: nil)
        let due = at(berlin, 2026, 11, 26, 21, 30)
        _ = machine.replan(now: due - 60, rules: berlin, context: idle)
        #expect(machine.timerFired(now: due, rules: berlin, context: .init(playing: true)) == [.schedule(at: nil)])
        #expect(machine.waiting)
        // Paused only briefly: still waiting, check again when the pause is long enough.
        let brief = machine.contextChanged(now: due + 600, rules: berlin, context: .init(pausedFor: 30))
        #expect(brief == [.schedule(at: nil), .recheck(at: due + 600 + 90)])
        // The session ended: now it fires.
        let ended = machine.contextChanged(now: due + 900, rules: berlin, context: idle)
        #expect(ended.first == .chime)
        #expect(!machine.waiting)
    }

    @Test func whenItCannotSoundItGlowsInstead() throws {
        let berlin = try zone("Europe/Berlin")
        let due = at(berlin, 2026, 11, 26, 22, 30)
        for (preference, context) in [
            (reminder(22, 30, quiet: (22 * 60, 7 * 60)), ReminderMachine.Context()),  // quiet hours
            (reminder(22, 30), ReminderMachine.Context(muted: true)),
            (reminder(22, 30), ReminderMachine.Context(night: true)),
            (reminder(22, 30), ReminderMachine.Context(outputAvailable: false)),
            (reminder(22, 30, style: .glow), ReminderMachine.Context()),
        ] {
            var machine = ReminderMachine(preference: preference, firedDay: nil)
            _ = machine.replan(now: due - 60, rules: berlin, context: context)
            #expect(machine.timerFired(now: due, rules: berlin, context: context).first == .glow)
            #expect(machine.cardShowing)
        }
    }

    @Test func aReminderMissedWhileOffIsShownSilentlyWithinHalfAnHourAndDroppedAfter() throws {
        let berlin = try zone("Europe/Berlin")
        let due = at(berlin, 2026, 11, 26, 21, 30)
        var recent = ReminderMachine(preference: reminder(21, 30), firedDay: nil)
        let late = recent.replan(now: due + 20 * 60, rules: berlin, context: idle) // booted 20 minutes late
        #expect(late.first == .glow) // shown, never sounded
        #expect(recent.cardShowing)
        var old = ReminderMachine(preference: reminder(21, 30), firedDay: nil)
        let tooLate = old.replan(now: due + 45 * 60, rules: berlin, context: idle)
        #expect(tooLate == [.schedule(at: at(berlin, 2026, 11, 27, 21, 30))])
        #expect(!old.cardShowing)
    }

    /// Found by lifesim (seed 2, day 273): a box without a clock chip booted on a time saved four days
    /// before, 15 minutes after that day's reminder time, and showed the card for a day that had long
    /// since had its reminder. A day on or before the one it last fired on is over: nothing for it.
    @Test func aClockDaysBehindTheDayItLastFiredBringsNothingBack() throws {
        let london = try zone("Europe/London")
        var machine = ReminderMachine(preference: reminder(11, 31), firedDay: CivilDate(year: 2027, month: 10, day: 1))
        let stale = machine.replan(now: at(london, 2027, 9, 27, 11, 46), rules: london, context: idle)
        #expect(stale == [.schedule(at: at(london, 2027, 10, 2, 11, 31))])
        #expect(!machine.cardShowing)
        // The clock put right: the next is still the day after the one it last fired on.
        #expect(machine.replan(now: at(london, 2027, 10, 1, 17, 17), rules: london, context: idle)
                == [.schedule(at: at(london, 2027, 10, 2, 11, 31))])
    }

    @Test func offUntilTheOwnerOptsIn() throws {
        let berlin = try zone("Europe/Berlin")
        var machine = ReminderMachine(preference: nil, firedDay: nil)
        #expect(machine.replan(now: 0, rules: berlin, context: idle) == [.schedule(at: nil)])
    }
}
