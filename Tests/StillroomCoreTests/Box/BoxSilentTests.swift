import StillroomCore
import Testing

/// The breathing timer inside the box (Box+Silent.swift, `SilentPractice`), in milliseconds: silence means
/// silence, the run it keeps, and its dating against the clock's trust.
@Suite struct BoxSilentTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)
    let wall0: UnixMilliseconds = 1_800_000_000_000
    let pattern = BreathingTimer.patterns[0].name

    func at(_ seconds: Double) -> MonotonicInstant { start + .milliseconds(Int64(seconds * 1000)) }
    func wall(_ seconds: Double) -> UnixMilliseconds { wall0 + UnixMilliseconds(seconds * 1000) }

    /// Handles `event` at `seconds`, performing `.then` in order; a run's insert is answered with `nextID`.
    @discardableResult
    func feed(_ box: inout Box, _ event: BoxEvent, at seconds: Double, nextID: Int64 = 41) -> [BoxEffect] {
        perform(event, on: &box, now: at(seconds), wall: wall(seconds), runID: nextID)
    }

    func savedRuns(_ effects: [BoxEffect]) -> [PracticeRunRecord] {
        effects.compactMap { if case .silent(.saveRun(let run, _)) = $0 { run } else { nil } }
    }

    func box(counting: Bool = true, clockTrusted: Bool = true) -> Box {
        var model = InterfaceModel()
        model.settings.timerCounts = counting
        return Box(model: model, clockTrusted: clockTrusted)
    }

    @Test func aTimerStartingPausesARecordingFirstThenArmsItsEndAndItsSaves() throws {
        var box = box()
        feed(&box, .player(.play(sessionID: "a", title: "A")), at: 0)
        let effects = feed(&box, .startBreathingTimer(pattern: pattern, minutes: 5), at: 20)
        #expect(box.player.phase == .paused)
        let paused = try #require(effects.firstIndex { if case .output(.pauseOutput) = $0 { true } else { false } })
        let cued = try #require(effects.firstIndex(of: .silent(.softCue(.start))))
        #expect(paused < cued)
        #expect(effects.contains(.arm(.breathingEnd, at: .monotonic(at(20) + .seconds(300)))))
        #expect(effects.contains(.arm(.breathingRunSave, at: .monotonic(at(20) + PlayerMachine.checkpointInterval))))
        #expect(box.silent.timer?.patternName == pattern)
        // The pause did not end the timer it made way for.
        #expect(!effects.contains { if case .silent(.stopped) = $0 { true } else { false } })
    }

    @Test func anUnknownPatternOrLengthStartsNothing() {
        var box = box()
        #expect(feed(&box, .startBreathingTimer(pattern: "7-7-7", minutes: 5), at: 0).isEmpty)
        #expect(feed(&box, .startBreathingTimer(pattern: pattern, minutes: 0), at: 0).isEmpty)
        #expect(box.silent.timer == nil)
    }

    @Test func theRunIsSavedFromTenSecondsOnThenUpdatedAndCompletedAtTheEnd() {
        var box = box()
        feed(&box, .startBreathingTimer(pattern: pattern, minutes: 1), at: 0)
        #expect(savedRuns(feed(&box, .timer(.breathingRunSave), at: 9)).isEmpty, "under 10 s no run is kept")
        let first = savedRuns(feed(&box, .timer(.breathingRunSave), at: 20))
        #expect(first.count == 1 && first.first?.id == nil)
        #expect(box.silent.runID == 41)
        let later = savedRuns(feed(&box, .timer(.breathingRunSave), at: 30))
        #expect(later.map(\.id) == [41], "the run is updated, not inserted again")
        let end = feed(&box, .timer(.breathingEnd), at: 60)
        #expect(end.contains(.silent(.softCue(.end))))
        #expect(end.contains(.silent(.stopped(completed: true, seconds: 60))))
        let last = savedRuns(end)
        #expect(last.map(\.id) == [41])
        #expect(last.first?.completedAt == wall(60))
        #expect(last.first?.startedAt == wall(0), "a trusted clock dates the start as now minus what elapsed")
        #expect(box.silent.timer == nil)
    }

    @Test func uncountedMinutesSaveNothingAndAStoppedTimerHasNoEndCue() {
        var box = box(counting: false)
        feed(&box, .startBreathingTimer(pattern: pattern, minutes: 1), at: 0)
        #expect(savedRuns(feed(&box, .timer(.breathingRunSave), at: 20)).isEmpty)
        let stopped = feed(&box, .stopBreathingTimer, at: 30)
        #expect(savedRuns(stopped).isEmpty)
        #expect(!stopped.contains(.silent(.softCue(.end))))
        #expect(stopped.contains(.silent(.stopped(completed: false, seconds: 30))))
    }

    @Test func aRunSavedUnderAnUntrustedClockIsDatedAgainWhenTheClockIsTrusted() {
        var box = box(clockTrusted: false)
        feed(&box, .startBreathingTimer(pattern: pattern, minutes: 5), at: 0)
        let first = savedRuns(feed(&box, .timer(.breathingRunSave), at: 20))
        #expect(first.first?.clockTrusted == false)
        #expect(first.first?.startedAt == wall(0), "untrusted: the wall time the timer started")
        let trusted = feed(&box, .clockSet(trusted: true), at: 25)
        #expect(trusted.contains(.redateRuns([41: at(0)])))
        // Once: trusted again, nothing more to date.
        #expect(!feed(&box, .clockSet(trusted: true), at: 26).contains { if case .redateRuns = $0 { true } else { false } })
        // Later saves of the same run are trusted, and date its start from what elapsed.
        let later = savedRuns(feed(&box, .timer(.breathingRunSave), at: 30))
        #expect(later.first?.clockTrusted == true && later.first?.startedAt == wall(0))
    }

    @Test func theInsertOfAnEndedTimersRunDoesNotBecomeTheNextTimers() {
        var box = box()
        feed(&box, .startBreathingTimer(pattern: pattern, minutes: 5), at: 0)
        // The second start ends the first (its run inserted as it ends: id 41) and begins another.
        feed(&box, .startBreathingTimer(pattern: pattern, minutes: 5), at: 15, nextID: 41)
        #expect(box.silent.timer?.startedAt == at(15))
        #expect(box.silent.runID == nil, "the new timer's run is its own")
        let next = savedRuns(feed(&box, .timer(.breathingRunSave), at: 30, nextID: 42))
        #expect(next.map(\.id) == [nil])
        #expect(box.silent.runID == 42)
    }
}
