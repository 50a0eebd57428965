import StillroomCore
import Testing

/// The reminder inside the box (Box+Reminder.swift), in milliseconds: planned in local time, following the
/// player, and allowed to sound only when the box may (the night hours read in the local zone, the volume
/// after its caps, the output).
@Suite struct BoxReminderTests {
    /// UTC+2 all year, so local and UTC differ by whole hours.
    let zone = TimeZoneRules(posix: try! POSIXTimeZone(parsing: "XYZ-2"))
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    /// The wall time at a local time on Friday 15 January 2027, plus `seconds`.
    func wall(_ hour: Int, _ minute: Int, plus seconds: Int64 = 0) -> UnixMilliseconds {
        (zone.unixSeconds(for: LocalDateTime(year: 2027, month: 1, day: 15, hour: hour, minute: minute)!) + seconds) * 1000
    }

    func preference(at hour: Int, _ minute: Int) -> ReminderPreferenceRecord {
        ReminderPreferenceRecord(enabled: true, minuteOfDay: hour * 60 + minute, weekdays: .all, style: .chime,
                                 quietStartMinute: 0, quietEndMinute: 0, updatedAt: wall(8, 0))
    }

    /// A box with the reminder chosen for `hour:minute` local, planned at 12:00 local.
    func box(reminderAt hour: Int, _ minute: Int, settings: (inout Settings) -> Void = { _ in }) -> Box {
        var model = InterfaceModel()
        settings(&model.settings)
        var box = Box(model: model, reminder: ReminderMachine(preference: preference(at: hour, minute), firedDay: nil))
        let planned = box.handle(.planReminder(zone), now: start, wall: wall(12, 0))
        #expect(planned == [.arm(.reminder, at: .wallClock(wall(hour, minute) / 1000))], "planned in local time: \(planned)")
        return box
    }

    /// Handles `event`, performing `.then` in order; the engine answers a load at once.
    @discardableResult
    func feed(_ box: inout Box, _ event: BoxEvent, at wall: UnixMilliseconds, now: MonotonicInstant) -> [BoxEffect] {
        perform(event, on: &box, now: now, wall: wall, lengthFrames: 3_600_000)
    }

    func sounds(_ effects: [BoxEffect]) -> [ReminderAction] {
        effects.compactMap { if case .reminder(let effect) = $0, effect == .chime || effect == .glow { effect } else { nil } }
    }

    @Test func dueWhilePlayingItWaitsAndGoesWhenThePlayerSettlesStopped() {
        var box = box(reminderAt: 19, 0)
        feed(&box, .player(.play(sessionID: "a", title: "A")), at: wall(18, 55), now: start)
        let due = feed(&box, .timer(.reminder), at: wall(19, 0), now: start + .seconds(300))
        #expect(sounds(due).isEmpty, "it never interrupts a session")
        #expect(box.reminder.waiting)
        let stopped = feed(&box, .player(.stop), at: wall(19, 5), now: start + .seconds(600))
        #expect(sounds(stopped) == [.chime])
        #expect(stopped.contains(.reminder(.firedOn(CivilDate(year: 2027, month: 1, day: 15)!))))
        let said = stopped.firstIndex { if case .playerPhaseChanged = $0 { true } else { false } }
        let chimed = stopped.firstIndex(of: .reminder(.chime))
        #expect(said != nil && chimed != nil && said! < chimed!, "the reminder follows the phase the player settled in")
    }

    @Test func theNightHoursAreReadInLocalTime() {
        // 21:30 local is 19:30 UTC: inside the night hours (21:00–07:00) only in local time.
        var box = box(reminderAt: 21, 30) { $0.nightStarts = 21 * 60; $0.nightEnds = 7 * 60 }
        #expect(sounds(feed(&box, .timer(.reminder), at: wall(21, 30), now: start)) == [.glow])
        var day = self.box(reminderAt: 20, 30) { $0.nightStarts = 21 * 60; $0.nightEnds = 7 * 60 }
        #expect(sounds(feed(&day, .timer(.reminder), at: wall(20, 30), now: start)) == [.chime])
    }

    @Test func aVolumeCappedToNothingOrAMissingOutputGlowsInstead() throws {
        var muted = box(reminderAt: 19, 0) { try! $0.set("volume", to: "0") }
        #expect(sounds(feed(&muted, .timer(.reminder), at: wall(19, 0), now: start)) == [.glow])
        var silent = box(reminderAt: 19, 0)
        feed(&silent, .player(.outputLost("unplugged")), at: wall(18, 0), now: start)
        #expect(sounds(feed(&silent, .timer(.reminder), at: wall(19, 0), now: start)) == [.glow])
    }

    @Test func aClockSetOrAZoneChangePlansItAgain() {
        var box = box(reminderAt: 19, 0)
        let set = feed(&box, .clockSet(trusted: true), at: wall(12, 0), now: start)
        #expect(set.contains(.arm(.reminder, at: .wallClock(wall(19, 0) / 1000))))
        // In UTC, 19:00 is two hours later than in the old zone.
        let moved = feed(&box, .planReminder(.utc), at: wall(12, 0), now: start)
        #expect(moved.contains(.arm(.reminder, at: .wallClock(wall(19, 0, plus: 2 * 3600) / 1000))))
    }

    @Test func dismissingANoticeIsSeeingTheReminderCard() {
        var planned = box(reminderAt: 19, 0) { try! $0.set("volume", to: "0") }
        feed(&planned, .timer(.reminder), at: wall(19, 0), now: start)
        #expect(planned.reminder.cardShowing)
        // The card, on the notice screen with its dismiss focused.
        var model = planned.model
        model.notices = [InterfaceModel.Notice(id: 3, kind: .reminder, message: "Time for your practice.")]
        var box = Box(interface: Interface(showing: [Page(.notice(id: 3), focus: .dismiss)]), model: model,
                      listening: planned.listening, reminder: planned.reminder)
        _ = box.handle(.start, now: start, wall: wall(19, 1))
        var effects = box.handle(.input(.button(.knob, .pressed)), now: start + .seconds(1), wall: wall(19, 1))
        effects += box.handle(.input(.button(.knob, .released(long: false))), now: start + .seconds(1) + .milliseconds(120),
                              wall: wall(19, 1))
        #expect(effects.contains(.interface(.dismissNotice(id: 3))), "\(effects)")
        #expect(!box.reminder.cardShowing)
    }
}
