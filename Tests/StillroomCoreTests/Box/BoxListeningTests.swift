import StillroomCore
import Testing

/// The rules around the player and the ledger inside the box (Box+Listening.swift), in milliseconds: the
/// steps a request needs first, the breathing timer a recording ends, when the output is retried, and what
/// is said and redrawn once an event has settled. Frames are at 1,000 a second.
@Suite struct BoxListeningTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)
    let wall: UnixMilliseconds = 1_800_000_000_000

    /// Feeds `event` and performs what the box asks as the daemon does, handing `.then` events back in
    /// order; the engine answers a load with `.loaded` (300 s). Returns every effect, in the order met.
    @discardableResult
    func feed(_ box: inout Box, _ event: BoxEvent, at seconds: Double = 0) -> [BoxEffect] {
        perform(event, on: &box, now: start + .milliseconds(Int64(seconds * 1000)), wall: wall)
    }

    func playing() -> Box {
        var box = Box()
        feed(&box, .player(.play(sessionID: "a", title: "A")))
        #expect(box.player.phase == .playing)
        return box
    }

    @Test func aRequestForSoundWithTheOutputMissingTriesTheOutputFirst() {
        var box = playing()
        // The loss stops the output and keeps it being retried.
        #expect(feed(&box, .player(.outputLost("unplugged"))).contains(.watchSoundDevices))
        #expect(box.armed[.outputRetry] == .monotonic(start + Box.outputRetryInterval))
        #expect(!box.player.outputAvailable)
        let toggled = box.handle(.player(.toggle), now: start, wall: wall)
        #expect(toggled == [.retryOutput, .then(.player(.toggle, prepared: true))])
        // Still missing after the try: the player stays silent.
        feed(&box, .player(.toggle, prepared: true))
        #expect(box.player.phase == .paused)
        // A request that wants no sound tries nothing first.
        #expect(!box.handle(.player(.stop), now: start, wall: wall).contains(.retryOutput))
    }

    @Test func withTheOutputThereNothingIsTriedAndNothingKeptRetrying() {
        var box = playing()
        let effects = feed(&box, .player(.toggle))
        #expect(!effects.contains(.retryOutput) && !effects.contains(.watchSoundDevices), "\(effects)")
        #expect(box.armed[.outputRetry] == nil)
    }

    @Test func acceptingTheOfferedPlaceJoinsItsRunFirst() {
        let offered = PlayerMachine(resumeFrom: PlaybackPosition(sessionID: "a", frame: 60_000, sampleRate: 1000), title: "A")
        var box = Box(listening: Listening(player: offered))
        let accepted = box.handle(.player(.acceptResume), now: start, wall: wall)
        #expect(accepted == [.joinLatestRun(sessionID: "a"), .then(.player(.acceptResume, prepared: true))])
        // Dismissing the offer joins nothing.
        #expect(box.handle(.player(.dismissResume), now: start, wall: wall).allSatisfy { $0 != .joinLatestRun(sessionID: "a") })
    }

    @Test func aRecordingStartingEndsTheBreathingTimerBeforeItSounds() throws {
        var box = Box()
        feed(&box, .startBreathingTimer(pattern: BreathingTimer.patterns[0].name, minutes: 5))
        #expect(box.silent.timer != nil)
        let effects = feed(&box, .player(.play(sessionID: "a", title: "A")), at: 30)
        let ended = try #require(effects.firstIndex { if case .silent(.stopped(completed: false, _)) = $0 { true } else { false } },
                                 "\(effects)")
        let sounded = try #require(effects.firstIndex { if case .output(.startOutput) = $0 { true } else { false } })
        #expect(ended < sounded)
        #expect(box.silent.timer == nil)
        // Without a timer running there is nothing to end.
        var quiet = Box()
        #expect(!feed(&quiet, .player(.play(sessionID: "a", title: "A"))).contains { if case .silent = $0 { true } else { false } })
    }

    @Test func aNewPhaseIsSaidOnceWhenTheEventHasSettled() {
        var box = Box()
        // The load answers at once: the play settles playing, and "loading" is never said.
        let phases = feed(&box, .player(.play(sessionID: "a", title: "A"))).compactMap {
            if case .playerPhaseChanged(let phase) = $0 { phase } else { nil }
        }
        #expect(phases == [.playing])
        let paused = feed(&box, .player(.pause(.user)), at: 5).filter { if case .playerPhaseChanged = $0 { true } else { false } }
        #expect(paused == [.playerPhaseChanged(.paused)])
    }

    @Test func thePositionIsRedrawnOnceASecondNotOnEveryReport() {
        var box = playing()
        func rebuilds(_ frame: Int64) -> Int {
            feed(&box, .player(.heard(positionFrame: frame)), at: Double(frame) / 1000).filter { $0 == .rebuildModel }.count
        }
        #expect(rebuilds(1_100) == 1)
        #expect(rebuilds(1_500) == 0)
        #expect(rebuilds(1_900) == 0)
        #expect(rebuilds(2_050) == 1)
        // Anything but a report redraws.
        #expect(feed(&box, .player(.pause(.user)), at: 2.1).contains(.rebuildModel))
    }

    @Test func aCheckpointIsOneSaveOfThePlaceWithTheRunItUpdates() throws {
        var box = playing()
        feed(&box, .heard([0..<12_000]), at: 12)
        feed(&box, .player(.heard(positionFrame: 12_000)), at: 12)
        let saves = feed(&box, .player(.checkpointTimer), at: 12).compactMap { if case .save(let save) = $0 { save } else { nil } }
        #expect(saves.count == 1, "\(saves)")
        #expect(saves.first?.checkpoints.count == 1)
        #expect(saves.first?.runs.count == 1)
    }
}

extension BoxListeningTests {
    @Test func whatTheInterfaceAsksOfThePlayerGoesToThePlayer() {
        var box = Box(model: InterfaceSamples.model())
        let id = InterfaceSamples.model().sessions[0].id
        let title = InterfaceSamples.model().sessions[0].title
        #expect(box.listen(to: .play(sessionID: id)) == [.then(.player(.play(sessionID: id, title: title)))])
        #expect(box.listen(to: .play(sessionID: "not-in-the-library")).isEmpty)
        #expect(box.listen(to: .seek(toSeconds: 12.5)) == [.then(.player(.seekTo(seconds: 12.5)))])
        // The jack: the player follows it, then the daemon applies the headphone cap.
        #expect(box.listen(to: .headphones(connected: false)) == [.then(.player(.headphones(connected: false))), .interface(.headphones(connected: false))])
        #expect(box.listen(to: .cue(.tick)) == [.interface(.cue(.tick))])
        // The player takes a seek in seconds at its own rate.
        feed(&box, .player(.play(sessionID: id, title: title)))
        feed(&box, .player(.seekTo(seconds: 12.5)))
        #expect(box.player.position == 12_500)
    }

    @Test func aTranscriptReadAloudPausesAPlayingRecordingFirst() {
        var box = playing()
        #expect(box.listen(to: .readTranscript(fromCue: 3)) == [.then(.player(.pause(.user))), .then(.speech(.readTranscript(fromCue: 3)))])
        feed(&box, .player(.pause(.user)))
        #expect(box.listen(to: .readTranscript(fromCue: 3)) == [.then(.speech(.readTranscript(fromCue: 3)))])
    }
}

extension BoxListeningTests {
    @Test func aDownloadRemovedStopsThePlayerFirstOnlyIfItPlaysIt() {
        var box = playing()
        #expect(box.handle(.removingDownload(sessionID: "b"), now: start, wall: wall).isEmpty)
        #expect(box.listen(to: .removeDownload(sessionID: "b")) == [.interface(.removeDownload(sessionID: "b"))])
        #expect(box.listen(to: .removeDownload(sessionID: "a")) == [.then(.player(.stop)), .interface(.removeDownload(sessionID: "a"))])
        feed(&box, .removingDownload(sessionID: "a"))
        #expect(box.player.phase == .idle)
    }
}

extension BoxListeningTests {
    @Test func anAbsurdSeekInSecondsIsRefusedOrClampedNeverATrap() {
        var box = playing()
        feed(&box, .player(.heard(positionFrame: 5_000)), at: 5)
        feed(&box, .player(.seekTo(seconds: .infinity)), at: 5)
        feed(&box, .player(.seekTo(seconds: .nan)), at: 5)
        #expect(box.player.position == 5_000, "not finite: no seek at all")
        feed(&box, .player(.seekTo(seconds: 1e30)), at: 5)
        #expect(box.player.position <= box.player.lengthFrames && box.player.position > 290_000, "clamped to the recording")
        feed(&box, .player(.seekTo(seconds: -1e30)), at: 5)
        #expect(box.player.position == 0)
        // Nothing loaded: nothing to seek.
        var idle = Box()
        #expect(idle.handle(.player(.seekTo(seconds: 10)), now: start, wall: wall).allSatisfy { if case .output = $0 { false } else { true } })
    }
}
