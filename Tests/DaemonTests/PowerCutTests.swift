import ControlProtocol
import Glibc
import StillroomCore
import TestSupport
import Testing

/// The JSON that `stillroomctl status --json` printed.
func statusJSON(_ text: String) -> JSONValue { (try? JSONValue.parse(Array(text.utf8))) ?? .null }
/// `stillroomctl status --json`'s text read back as the CLI reads it.
func statusReport(_ text: String) -> StatusReport { StatusReport(json: statusJSON(text)) }

@Suite struct PowerCutTests {
    /// The bounds stated exactly: offer = checkpoint − 5 s, and heard − 10 s ≤ checkpoint ≤ heard; so
    /// the offer is 5 to 15 s behind what was heard, never ahead of it.
    @Test func killNineMidPlaybackOffersFiveSecondsBeforeACheckpointAtMostTenSecondsBehindWhatWasHeard() throws {
        // The daemon's clocks 4 times fast (the paced speaker with them): the bounds are in its time.
        let warp = 4.0
        let harness = DaemonHarness(extraArguments: ["--time-warp", String(Int(warp))])
        harness.start()
        #expect(harness.ctl("play", "long").status == 0)
        // Past the first periodic checkpoint (10 s of playback), so the offer is not simply 0:00.
        _ = harness.waitForStatus { (statusJSON($0)["lastCheckpoint"]?["position"]?.doubleValue ?? 0) > 5 }
        let asked = monotonicSeconds()
        let running = statusJSON(harness.ctl("status", "--json").stdout)
        harness.stop(signal: SIGKILL) // a power cut, as far as the process can tell
        let drift = (monotonicSeconds() - asked) * warp // what the speaker can have played meanwhile
        let heard = try #require(running["position"]?.doubleValue)
        #expect(running["state"]?.stringValue == "playing")

        harness.start()
        let offered = statusJSON(harness.ctl("status", "--json").stdout)
        #expect(offered["state"]?.stringValue == "idle") // never plays by itself
        let offer = try #require(offered["resumeOffer"]?["position"]?.doubleValue, "no resume offer")
        let checkpoint = try #require(offered["lastCheckpoint"]?["position"]?.doubleValue)
        let problems = powerCutPositionProblems(heard: heard, checkpointBefore: running["lastCheckpoint"]?["position"]?.doubleValue,
                                                drift: drift, checkpointAfter: checkpoint, offer: offer)
        #expect(problems.isEmpty, "\(problems)")
        #expect(offer <= heard + drift - 5 + 0.001 && offer >= heard - 15 - 0.001, "heard \(heard) s, offered \(offer) s")
        // Accept it: playback continues from the offered place.
        #expect(harness.ctl("play").status == 0)
        let resumed = harness.waitForStatus { statusReport($0).state == .playing }
        #expect(statusReport(resumed).session == "long")
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(log.contains("database: opened the existing database")) // intact after the kill
    }

    /// The bounds themselves catch what they must: an offer ahead of what was heard, a checkpoint more
    /// than 10 s old, an offer not exactly 5 s before its checkpoint.
    @Test func thePositionBoundsRefuseAnOfferAheadOrTooFarBehind() {
        #expect(powerCutPositionProblems(heard: 30, checkpointBefore: 29.7, drift: 0.05, checkpointAfter: 29.7, offer: 24.7).isEmpty)
        #expect(powerCutPositionProblems(heard: 3, checkpointBefore: 0, drift: 0.05, checkpointAfter: 0, offer: 0).isEmpty)
        // The old place offered after a restart from 0:00 (docs/reliability.md, the first finding).
        #expect(!powerCutPositionProblems(heard: 4, checkpointBefore: 29.7, drift: 0.05, checkpointAfter: 29.7, offer: 24.7).isEmpty)
        #expect(!powerCutPositionProblems(heard: 30, checkpointBefore: 19.7, drift: 0.05, checkpointAfter: 19.7, offer: 14.7).isEmpty)
        #expect(!powerCutPositionProblems(heard: 30, checkpointBefore: 29.7, drift: 0.05, checkpointAfter: 29.7, offer: 26).isEmpty)
        // A checkpoint written after the status, beyond what the speaker could have played.
        #expect(!powerCutPositionProblems(heard: 30, checkpointBefore: 29.7, drift: 0.05, checkpointAfter: 31, offer: 26).isEmpty)
        #expect(powerCutPositionProblems(heard: 30, checkpointBefore: 20.1, drift: 0.05, checkpointAfter: 30.02, offer: 25.02).isEmpty)
    }

    /// A run completed by listening to the end is on the card the moment it ends: a cut right after loses
    /// nothing (the torture's random seeks never reach an end, so this is where that promise is tested).
    @Test func aCompletedRunSurvivesACutRightAfterTheEnd() {
        let harness = DaemonHarness()
        harness.daemonAudioDevice = "paced:16"
        harness.start()
        #expect(harness.ctl("play", "long").status == 0)
        _ = harness.waitForStatus { statusReport($0).state == .ended }
        harness.stop(signal: SIGKILL)

        harness.start()
        let recent = statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue ?? []
        #expect(recent.count == 1)
        #expect(recent.first?["completed"]?.boolValue == true, "the completed run was lost: \(recent)")
        harness.stop()
    }

    /// A breathing timer's run is saved every 10 s, as a listening run is: a cut loses at most 10 s of silent
    /// practice, not the whole timer, and never keeps more than was breathed. (Before, the run was written
    /// only when the timer ended: a cut lost it all.) The box's clocks run 30 times fast, so 45 s of timer
    /// pass in 1.5 s.
    @Test func aCutDuringABreathingTimerLosesAtMostTenSecondsOfIt() throws {
        let warp = 30.0
        let harness = DaemonHarness(extraArguments: ["--time-warp", String(Int(warp))])
        harness.start()
        #expect(harness.ctl("timer", "start", "--minutes", "5").status == 0)
        _ = harness.waitForStatus(attempts: 5000) { _ in
            (statusJSON(harness.ctl("timer", "--json").stdout)["remaining"]?.doubleValue ?? 300) <= 300 - 45
        }
        let asked = monotonicSeconds()
        let remaining = try #require(statusJSON(harness.ctl("timer", "--json").stdout)["remaining"]?.doubleValue)
        harness.stop(signal: SIGKILL)
        let drift = (monotonicSeconds() - asked) * warp // the most the timer can have run on after its status
        let elapsed = 300 - remaining

        harness.extraArguments = []
        harness.start()
        let kept = PracticeKept(harness)
        #expect(kept.runs == 1, "the timer's run was lost")
        #expect(kept.silentSeconds <= elapsed + drift + 0.001, "kept \(kept.silentSeconds) s of a timer cut at \(elapsed)–\(elapsed + drift) s")
        #expect(kept.silentSeconds >= elapsed - 10 - 0.001, "kept \(kept.silentSeconds) s of a timer cut at \(elapsed) s: more than 10 s lost")
        harness.stop()
    }
}
