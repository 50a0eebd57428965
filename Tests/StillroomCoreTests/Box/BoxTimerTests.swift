import StillroomCore
import Testing

/// The box's timers (Box+Timers.swift), in milliseconds: what it arms and cancels, by name, and the rules
/// that depend on a timer running, which were the daemon's: the long pause armed once, the missing output
/// retried until it is back, the clock on screen turning each minute but not in the dark, a reminder's
/// recheck on the monotonic clock.
@Suite struct BoxTimerTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)
    /// Friday 15 January 2027, 12:00:30 UTC.
    let wall0: UnixMilliseconds = 1_800_014_430_000

    func at(_ seconds: Double) -> MonotonicInstant { start + .milliseconds(Int64(seconds * 1000)) }
    func wall(_ seconds: Double) -> UnixMilliseconds { wall0 + UnixMilliseconds(seconds * 1000) }

    /// Handles `event` at `seconds`, performing `.then` in order; the engine answers a load at once.
    @discardableResult
    func feed(_ box: inout Box, _ event: BoxEvent, at seconds: Double) -> [BoxEffect] {
        perform(event, on: &box, now: at(seconds), wall: wall(seconds), lengthFrames: 3_600_000)
    }

    /// A box playing session "a" with a run open (ten seconds heard).
    func playing() -> Box {
        var box = Box()
        feed(&box, .player(.play(sessionID: "a", title: "A")), at: 0)
        feed(&box, .heard([0..<10_000]), at: 10)
        #expect(box.player.phase == .playing)
        return box
    }

    func arms(_ timer: BoxTimer, _ effects: [BoxEffect]) -> Int {
        effects.filter { if case .arm(timer, _) = $0 { true } else { false } }.count
    }

    @Test func aLongPauseArmsItsTimerOnceAndPlayingCancelsIt() {
        var box = playing()
        feed(&box, .player(.pause(.user)), at: 20)
        #expect(box.armed[.runPause] == .monotonic(at(20) + PracticeLedger.pauseClosesRunAfter))
        // The pause goes on through a seek: its timer is not pushed back.
        let sought = feed(&box, .player(.seekTo(seconds: 5)), at: 600)
        #expect(arms(.runPause, sought) == 0, "\(sought)")
        #expect(box.armed[.runPause] == .monotonic(at(20) + PracticeLedger.pauseClosesRunAfter))
        let resumed = feed(&box, .player(.toggle), at: 700)
        #expect(resumed.contains(.cancel(.runPause)))
        #expect(box.armed[.runPause] == nil)
    }

    @Test func theLongPauseRunningOutClosesTheRunAndIsNoLongerArmed() {
        var box = playing()
        feed(&box, .player(.pause(.user)), at: 20)
        let closed = feed(&box, .timer(.runPause), at: 20 + PracticeLedger.pauseClosesRunAfter.seconds)
        #expect(closed.contains { if case .save(let save) = $0 { !save.runs.isEmpty } else { false } }, "\(closed)")
        #expect(box.armed[.runPause] == nil)
    }

    @Test func theMissingOutputIsRetriedEveryTwoSecondsUntilItIsBack() {
        var box = playing()
        let lost = feed(&box, .player(.outputLost("unplugged")), at: 30)
        #expect(lost.filter { $0 == .watchSoundDevices }.count == 1 && arms(.outputRetry, lost) == 1, "\(lost)")
        #expect(box.armed[.outputRetry] == .monotonic(at(30) + Box.outputRetryInterval))
        // Another event while it is missing arranges nothing more.
        let stopped = feed(&box, .player(.stop), at: 31)
        #expect(arms(.outputRetry, stopped) == 0 && !stopped.contains(.watchSoundDevices), "\(stopped)")
        // Due: armed again before the try (the try may bring it back, which cancels it).
        #expect(feed(&box, .timer(.outputRetry), at: 32) == [.arm(.outputRetry, at: .monotonic(at(34))), .retryOutput])
        let back = feed(&box, .player(.outputRestored), at: 33)
        #expect(back.contains(.cancel(.outputRetry)))
        #expect(box.armed[.outputRetry] == nil)
        // A retry already under way when it came back tries nothing.
        #expect(feed(&box, .timer(.outputRetry), at: 34).isEmpty)
    }

    @Test func theClockOnScreenTurnsEachMinuteButNotInTheDark() {
        var box = Box(model: InterfaceSamples.model())
        #expect(box.armed[.minute] == nil, "nothing is shown before the start")
        feed(&box, .start, at: 0)
        // 12:00:30: the next turn is at 12:01:00.
        #expect(box.armed[.minute] == .wallClock(wall(30) / 1000))
        let turned = feed(&box, .timer(.minute), at: 30)
        #expect(turned.contains(.rebuildModel))
        #expect(turned.contains(.arm(.minute, at: .wallClock(wall(90) / 1000))))
        // Dark: no turn at all; lit again, the next one.
        feed(&box, .timer(.interface(.dark)), at: 300)
        #expect(box.interface.isDark)
        #expect(box.armed[.minute] == nil)
        feed(&box, .glow, at: 1000)
        #expect(box.armed[.minute] == .wallClock((wall(1000) / 1000 / 60 + 1) * 60))
        // The clock set back an hour: the turn follows it.
        let back = wall0 - 3_600_000
        _ = box.handle(.clockSet(trusted: true), now: at(1001), wall: back)
        #expect(box.armed[.minute] == .wallClock((back / 1000 / 60 + 1) * 60))
    }

    @Test func aReminderWaitingOnAShortPauseLooksAgainOnTheMonotonicClock() {
        let preference = ReminderPreferenceRecord(enabled: true, minuteOfDay: 12 * 60 + 5, weekdays: .all, style: .chime,
                                                  quietStartMinute: 0, quietEndMinute: 0, updatedAt: wall0)
        var box = Box(reminder: ReminderMachine(preference: preference, firedDay: nil))
        feed(&box, .planReminder(.utc), at: 0)
        #expect(box.armed[.reminder] == .wallClock(wall(270) / 1000), "12:05:00")
        feed(&box, .player(.play(sessionID: "a", title: "A")), at: 1)
        feed(&box, .player(.pause(.user)), at: 240)
        // Due 30 s into the pause: it waits out the rest of two minutes, on the monotonic clock.
        feed(&box, .timer(.reminder), at: 270)
        #expect(box.reminder.waiting)
        #expect(box.armed[.reminderRecheck] == .monotonic(at(270) + .seconds(ReminderMachine.pauseLongEnough - 30)))
        #expect(box.armed[.reminder] == nil)
    }

    @Test func aHeldGestureArmsOnceAndAFiredTimerIsNoLongerArmed() {
        var box = Box(model: InterfaceSamples.model())
        feed(&box, .start, at: 0)
        let pressed = feed(&box, .input(.button(.back, .pressed)), at: 1)
        #expect(arms(.gesture, pressed) == 1)
        guard case .monotonic(let due)? = box.armed[.gesture] else {
            Issue.record("BACK held armed no gesture timer")
            return
        }
        feed(&box, .timer(.gesture), at: (due - start).seconds)
        #expect(box.armed[.gesture] == nil)
    }
}
