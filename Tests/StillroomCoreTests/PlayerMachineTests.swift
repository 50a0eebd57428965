import StillroomCore
import Testing

@Suite struct PlayerMachineTests {
    let t0 = MonotonicInstant(nanoseconds: 5_000_000_000)
    let rate = 44_100

    /// A player that has loaded and started "steady" (300 s).
    func playing() -> PlayerMachine {
        var player = PlayerMachine()
        _ = player.handle(.play(sessionID: "steady", title: "Steady breath"), now: t0)
        _ = player.handle(.loaded(lengthFrames: Int64(300 * rate), sampleRate: rate), now: t0)
        return player
    }

    @Test func playLoadsThenStartsAndSchedulesCheckpoints() {
        var player = PlayerMachine()
        #expect(player.handle(.play(sessionID: "steady", title: "Steady breath"), now: t0) == [.load(sessionID: "steady")])
        #expect(player.phase == .loading)
        let effects = player.handle(.loaded(lengthFrames: Int64(300 * rate), sampleRate: rate), now: t0)
        #expect(effects == [.startOutput(fromFrame: 0), .scheduleCheckpoint(at: t0 + .seconds(10)),
                            .saveCheckpoint(PlaybackPosition(sessionID: "steady", frame: 0, sampleRate: rate))])
        #expect(player.phase == .playing)
    }

    @Test func checkpointsEveryTenSecondsOnlyWhenThePositionMoved() {
        var player = playing()
        _ = player.handle(.heard(positionFrame: Int64(10 * rate)), now: t0 + .seconds(10))
        let first = player.handle(.checkpointTimer, now: t0 + .seconds(10))
        #expect(first == [.saveCheckpoint(PlaybackPosition(sessionID: "steady", frame: Int64(10 * rate), sampleRate: rate)),
                          .scheduleCheckpoint(at: t0 + .seconds(20))])
        // Position unchanged (a stalled output): no write, the timer keeps going.
        let second = player.handle(.checkpointTimer, now: t0 + .seconds(20))
        #expect(second == [.scheduleCheckpoint(at: t0 + .seconds(30))])
    }

    @Test func pauseFadesThenCheckpointsTheExactFrameAndStopsTheTimer() {
        var player = playing()
        #expect(player.handle(.pause(.user), now: t0) == [.pauseOutput, .cancelCheckpointTimer])
        #expect(player.phase == .paused)
        let saved = player.handle(.pausedAt(frame: 12_345), now: t0)
        #expect(saved == [.saveCheckpoint(PlaybackPosition(sessionID: "steady", frame: 12_345, sampleRate: rate))])
        // Idle while paused: the checkpoint timer does nothing.
        #expect(player.handle(.checkpointTimer, now: t0 + .seconds(60)) == [])
        // Resuming from the saved place writes nothing new.
        #expect(player.handle(.resume, now: t0) == [.startOutput(fromFrame: 12_345), .scheduleCheckpoint(at: t0 + .seconds(10))])
    }

    /// A seek right after a pause lands while the output is still fading out; its late reports of where it
    /// stopped must not undo the place the listener chose (found by hand: `pause` then `seek 2:00` at once
    /// resumed from 0:02).
    @Test func aSeekDuringThePauseFadeIsKeptWhenTheOutputReportsWhereItStopped() {
        var player = playing()
        _ = player.handle(.heard(positionFrame: Int64(2 * rate)), now: t0 + .seconds(2))
        #expect(player.handle(.pause(.user), now: t0 + .seconds(2)) == [.pauseOutput, .cancelCheckpointTimer])
        let chosen = PlaybackPosition(sessionID: "steady", frame: Int64(120 * rate), sampleRate: rate)
        #expect(player.handle(.seek(toFrame: chosen.frame), now: t0 + .seconds(2)) == [.saveCheckpoint(chosen)])
        // The fade's last reports: where the sound really stopped, before the seek.
        #expect(player.handle(.heard(positionFrame: Int64(2 * rate) + 800), now: t0 + .seconds(2)) == [])
        #expect(player.handle(.pausedAt(frame: Int64(2 * rate) + 800), now: t0 + .seconds(2)) == [])
        #expect(player.position == chosen.frame)
        #expect(player.lastCheckpoint == chosen)
        #expect(player.handle(.resume, now: t0 + .seconds(3)) == [.startOutput(fromFrame: chosen.frame),
                                                                   .scheduleCheckpoint(at: t0 + .seconds(13))])
        // The next pause is an ordinary one again: the output's report is the place.
        _ = player.handle(.pause(.user), now: t0 + .seconds(5))
        let saved = player.handle(.pausedAt(frame: chosen.frame + 1000), now: t0 + .seconds(5))
        #expect(saved == [.saveCheckpoint(PlaybackPosition(sessionID: "steady", frame: chosen.frame + 1000, sampleRate: rate))])
    }

    @Test func toggleAlternates() {
        var player = playing()
        _ = player.handle(.toggle, now: t0)
        #expect(player.phase == .paused)
        _ = player.handle(.toggle, now: t0)
        #expect(player.phase == .playing)
    }

    @Test func headphonesPulledPauseAtOncePluggedInStaysPaused() {
        var player = playing()
        _ = player.handle(.headphones(connected: true), now: t0)
        #expect(player.handle(.headphones(connected: false), now: t0) == [.pauseOutput, .cancelCheckpointTimer])
        #expect(player.pauseReason == .headphonesRemoved)
        #expect(player.handle(.headphones(connected: true), now: t0) == [])
        #expect(player.phase == .paused)
    }

    @Test func jackFlappingEndsPausedAndConsistent() {
        var player = playing()
        _ = player.handle(.headphones(connected: true), now: t0)
        for index in 0..<50 {
            _ = player.handle(.headphones(connected: index % 2 == 1), now: t0)
        }
        #expect(player.phase == .paused)
        #expect(player.headphonesConnected == true)
        // A press plays again; nothing else does.
        _ = player.handle(.resume, now: t0)
        #expect(player.phase == .playing)
    }

    @Test func outputLostPausesWithACheckpointAndNeverAutoResumes() {
        var player = playing()
        _ = player.handle(.heard(positionFrame: 99_000), now: t0)
        let effects = player.handle(.outputLost("USB DAC unplugged"), now: t0)
        #expect(effects == [.stopOutput, .cancelCheckpointTimer,
                            .saveCheckpoint(PlaybackPosition(sessionID: "steady", frame: 99_000, sampleRate: rate))])
        #expect(player.pauseReason == .outputLost)
        #expect(player.handle(.resume, now: t0) == []) // nothing to play on
        #expect(player.handle(.outputRestored, now: t0) == [])
        #expect(player.phase == .paused)
        #expect(player.handle(.resume, now: t0).first == .startOutput(fromFrame: 99_000))
    }

    @Test func seekWhilePlayingCommitsACheckpointAndNeverLandsOnTheEnd() {
        var player = playing()
        let effects = player.handle(.seek(toFrame: Int64(400 * rate)), now: t0)
        let target = Int64(299 * rate)
        #expect(effects == [.seekOutput(toFrame: target),
                            .saveCheckpoint(PlaybackPosition(sessionID: "steady", frame: target, sampleRate: rate))])
        _ = player.handle(.seekBy(frames: -Int64(1000 * rate)), now: t0)
        #expect(player.position == 0)
    }

    @Test func reachingTheEndClearsTheCheckpoint() {
        var player = playing()
        #expect(player.handle(.reachedEnd, now: t0) == [.cancelCheckpointTimer, .clearCheckpoint(sessionID: "steady")])
        #expect(player.phase == .ended)
    }

    @Test func damageIsNotAnEndThePlaceIsKeptAndSaid() {
        var player = playing()
        let at = Int64(149 * rate)
        let effects = player.handle(.damaged("The recording is damaged (bad frame).", atFrame: at), now: t0)
        #expect(effects == [.stopOutput, .cancelCheckpointTimer,
                            .saveCheckpoint(PlaybackPosition(sessionID: "steady", frame: at, sampleRate: rate))])
        #expect(player.phase == .paused)
        #expect(player.pauseReason == .damagedRecording)
        #expect(player.damage == "The recording is damaged (bad frame).")
        #expect(player.position == at)
        // Seeking past it and playing clears the reason.
        _ = player.handle(.seek(toFrame: Int64(200 * rate)), now: t0)
        _ = player.handle(.resume, now: t0)
        #expect(player.phase == .playing && player.pauseReason == nil && player.damage == nil)
    }

    @Test func aHugeSeekSaturatesInsteadOfOverflowing() {
        var player = playing()
        _ = player.handle(.heard(positionFrame: Int64(100 * rate)), now: t0)
        _ = player.handle(.seekBy(frames: .max), now: t0)
        #expect(player.position == Int64(299 * rate))
        _ = player.handle(.seekBy(frames: .min), now: t0)
        #expect(player.position == 0)
    }

    @Test func aResumeOfferIsRewoundAndNeverPlaysByItself() {
        let saved = PlaybackPosition(sessionID: "steady", frame: Int64(200 * rate), sampleRate: rate)
        var player = PlayerMachine(resumeFrom: saved, title: "Steady breath")
        #expect(player.phase == .idle)
        #expect(player.resumeOffer?.position.frame == Int64(195 * rate))
        #expect(player.handle(.checkpointTimer, now: t0) == [])
        #expect(player.handle(.toggle, now: t0) == [.load(sessionID: "steady")])
        let started = player.handle(.loaded(lengthFrames: Int64(300 * rate), sampleRate: rate), now: t0)
        #expect(started.first == .startOutput(fromFrame: Int64(195 * rate)))
        #expect(player.resumeOffer == nil)
    }

    @Test func dismissingTheOfferClearsTheCheckpoint() {
        let saved = PlaybackPosition(sessionID: "steady", frame: 1000, sampleRate: rate)
        var player = PlayerMachine(resumeFrom: saved, title: "Steady breath")
        #expect(player.resumeOffer?.position.frame == 0) // rewinding never goes below zero
        #expect(player.handle(.dismissResume, now: t0) == [.clearCheckpoint(sessionID: "steady")])
        #expect(player.resumeOffer == nil)
    }

    @Test func choosingAnotherSessionSavesThePlaceOfTheFirst() {
        var player = playing()
        _ = player.handle(.heard(positionFrame: 5000), now: t0)
        let effects = player.handle(.play(sessionID: "night", title: "Night"), now: t0)
        #expect(effects == [.stopOutput, .cancelCheckpointTimer,
                            .saveCheckpoint(PlaybackPosition(sessionID: "steady", frame: 5000, sampleRate: rate)),
                            .load(sessionID: "night")])
    }

    @Test func shutdownCheckpointsPlayingOrPausedButNotIdle() {
        var player = playing()
        _ = player.handle(.heard(positionFrame: 777), now: t0)
        #expect(player.handle(.shutdown, now: t0) == [.cancelCheckpointTimer,
                                                       .saveCheckpoint(PlaybackPosition(sessionID: "steady", frame: 777, sampleRate: rate))])
        var idle = PlayerMachine()
        #expect(idle.handle(.shutdown, now: t0) == [])
    }

    @Test func aFailedLoadIsAClearErrorState() {
        var player = PlayerMachine()
        _ = player.handle(.play(sessionID: "broken", title: "Broken"), now: t0)
        _ = player.handle(.loadFailed("sessions/broken/audio.mp3: notMP3"), now: t0)
        #expect(player.phase == .failed("sessions/broken/audio.mp3: notMP3"))
        #expect(player.handle(.resume, now: t0) == [])
    }
}
