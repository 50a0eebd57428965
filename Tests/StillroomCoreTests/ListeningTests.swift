import StillroomCore
import Testing

/// The rules between the player and the practice ledger (`Listening`), in milliseconds: the daemon only
/// performs the two steps. Frames are at 1,000 a second so that figures read as milliseconds.
@Suite struct ListeningTests {
    static let rate = 1000
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    func at(_ seconds: Double) -> MonotonicInstant { start + .milliseconds(Int64(seconds * 1000)) }
    func wall(_ seconds: Double) -> UnixMilliseconds { 1_800_000_000_000 + UnixMilliseconds(seconds * 1000) }

    /// One event through both steps, with the output reporting `heard` frames while its effects are
    /// performed (as the engine does when it pauses, drains or stops). Returns everything saved, in order.
    @discardableResult
    func handle(_ listening: inout Listening, _ event: PlayerEvent, at seconds: Double,
                heard: [Range<Int64>] = []) -> (output: [PlayerEffect], saves: [ProgressSave], settled: Listening.Settled) {
        let step = listening.begin(event, now: at(seconds))
        var saves: [ProgressSave] = []
        if !heard.isEmpty {
            let alone = listening.heard(heard, now: at(seconds), wall: wall(seconds), clockTrusted: true)
            if !alone.isEmpty { saves.append(alone) }
        }
        let settled = listening.settle(step.plan, now: at(seconds), wall: wall(seconds))
        if !settled.save.isEmpty {
            saves.append(settled.save)
            _ = listening.saved(settled.save.runs, as: settled.save.runs.enumerated().map { index, run in
                var stored = run
                stored.id = run.id ?? Int64(100 + index)
                return stored
            })
        }
        return (step.output, saves, settled)
    }

    /// Playing "a" from its start, loaded as 300 s.
    func playing(_ id: String = "a") -> Listening {
        var listening = Listening()
        handle(&listening, .play(sessionID: id, title: id), at: 0)
        handle(&listening, .loaded(lengthFrames: 300_000, sampleRate: Self.rate), at: 0)
        return listening
    }

    @Test func aCheckpointSavesThePlaceAndTheRunItUpdatesInOneSave() {
        var listening = playing()
        // 12 s heard, reported as the output plays (the run became worth keeping at 10 s: saved alone).
        let alone = listening.heard([0..<12_000], now: at(12), wall: wall(12), clockTrusted: true)
        #expect(alone.runs.count == 1 && alone.checkpoints.isEmpty)
        _ = listening.saved(alone.runs, as: alone.runs.map { var run = $0; run.id = 7; return run })
        handle(&listening, .heard(positionFrame: 12_000), at: 12)
        let (_, saves, _) = handle(&listening, .checkpointTimer, at: 12, heard: [12_000..<12_500])
        #expect(saves.count == 1, "the place and the run were saved apart: \(saves)")
        let save = saves.first ?? ProgressSave()
        #expect(save.checkpoints.count == 1)
        #expect(save.runs.map(\.id) == [7])
        #expect(save.runs.first?.actualListeningSeconds == 12.5, "the run saved with the place holds what the output reported first")
    }

    @Test func framesHeardDuringASwitchBelongToTheSessionBeingLeft() {
        var listening = playing("a")
        _ = listening.heard([0..<20_000], now: at(20), wall: wall(20), clockTrusted: true)
        handle(&listening, .heard(positionFrame: 20_000), at: 20)
        // Playing "b": the output stops "a", reporting its last frames; "a"'s run closes with its place.
        let (output, saves, settled) = handle(&listening, .play(sessionID: "b", title: "b"), at: 20, heard: [20_000..<20_300])
        #expect(output.contains(.stopOutput))
        #expect(settled.after == [.load(sessionID: "b")])
        let runs = saves.flatMap(\.runs)
        #expect(runs.map(\.sessionID) == ["a"])
        #expect(runs.last?.actualListeningSeconds == 20.3)
        // Until "b" is loaded, nothing reported heard is anyone's (the engine has no recording open).
        #expect(listening.engineSession == nil)
        #expect(listening.heard([0..<5_000], now: at(21), wall: wall(21), clockTrusted: true).isEmpty)
        #expect(listening.ledger.open == nil)
        handle(&listening, .loaded(lengthFrames: 60_000, sampleRate: Self.rate), at: 21)
        #expect(listening.engineSession?.id == "b")
        _ = listening.heard([0..<11_000], now: at(32), wall: wall(32), clockTrusted: true)
        #expect(listening.ledger.open?.record.sessionID == "b")
    }

    @Test func aPauseArmsTheLongPauseTimerAndPlayingCancelsIt() {
        var listening = playing()
        _ = listening.heard([0..<15_000], now: at(15), wall: wall(15), clockTrusted: true)
        #expect(listening.pausedSince == nil)
        let paused = handle(&listening, .pause(.user), at: 15)
        #expect(paused.output.contains(.pauseOutput))
        #expect(paused.settled.pauseTimer == .armUnlessArmed)
        #expect(listening.pausedSince == at(15))
        // The output's report of where it stopped saves the place, and the run with it; the pause began at 15 s.
        let placed = handle(&listening, .pausedAt(frame: 15_000), at: 15.2, heard: [15_000..<15_200])
        #expect(placed.saves.count == 1 && placed.saves.first?.checkpoints.count == 1 && placed.saves.first?.runs.count == 1)
        #expect(listening.pausedSince == at(15))
        let resumed = handle(&listening, .resume, at: 100)
        #expect(resumed.settled.pauseTimer == .cancel)
        #expect(listening.pausedSince == nil)
    }

    @Test func theLongPauseClosesTheRunAndStoppingLeavesTheSession() {
        var listening = playing()
        _ = listening.heard([0..<15_000], now: at(15), wall: wall(15), clockTrusted: true)
        handle(&listening, .pause(.user), at: 15)
        let closed = listening.pauseRanOut(wall: wall(15 + 1800))
        #expect(closed.runs.count == 1 && closed.runs.first?.completedAt == nil)
        #expect(listening.ledger.open == nil)
        // Stopping with a run open is a session left (a quiet moment for a purge); with none, it is not.
        var other = playing()
        _ = other.heard([0..<15_000], now: at(15), wall: wall(15), clockTrusted: true)
        #expect(handle(&other, .stop, at: 15).settled.sessionLeft)
        #expect(!handle(&listening, .stop, at: 1900).settled.sessionLeft)
    }

    @Test func theStoreGivesTheOpenRunItsIdAndUntrustedRunsAreReturnedForReDating() {
        var listening = playing()
        let alone = listening.heard([0..<10_000], now: at(10), wall: wall(10), clockTrusted: false)
        #expect(alone.runs.count == 1 && alone.runs.first?.id == nil)
        let untrusted = listening.saved(alone.runs, as: alone.runs.map { var run = $0; run.id = 42; return run })
        #expect(untrusted == [42: at(10)], "the run's monotonic start is when its first frames were reported")
        #expect(listening.ledger.open?.record.id == 42)
        // Deleting that run forgets it: listening on starts a new one.
        listening.forget(run: 42)
        #expect(listening.ledger.open == nil)
    }

    @Test func nestedEventsSettleInTurn() {
        // The output's effect raising another event before the first is settled (a device lost while it
        // starts): each begin's plan is settled on its own, and the ledger follows the latest phase.
        var listening = playing()
        _ = listening.heard([0..<12_000], now: at(12), wall: wall(12), clockTrusted: true)
        let outer = listening.begin(.checkpointTimer, now: at(12))
        let inner = listening.begin(.outputLost("unplugged"), now: at(12))
        let innerSettled = listening.settle(inner.plan, now: at(12), wall: wall(12))
        #expect(innerSettled.save.checkpoints.count == 1)
        #expect(innerSettled.pauseTimer == .armUnlessArmed)
        let outerSettled = listening.settle(outer.plan, now: at(12), wall: wall(12))
        #expect(listening.player.phase == .paused && listening.pausedSince == at(12))
        #expect(outerSettled.after.isEmpty)
    }
}
