import Glibc
import StillroomCore
import TestSupport
import Testing

/// A recording damaged in the middle (20 kB of random bytes, as a bad sector or a broken copy leaves it).
/// The box must say the recording is damaged, keep the place, and not call it finished: it once ran to the
/// damage and said "Finished", filled the progress bar and cleared the checkpoint.
@Suite struct DamagedRecordingTests {
    /// The harness's content with the 20-second sweep damaged from about 8 s on.
    func damagedHarness() -> DaemonHarness {
        let harness = DaemonHarness()
        let path = harness.content + "/sessions/long/audio.mp3"
        var bytes = Files.read(path)
        var seed: UInt32 = 12345
        let start = bytes.count * 2 / 5
        for index in start..<min(bytes.count, start + 20_000) {
            seed = seed &* 1_103_515_245 &+ 12345
            bytes[index] = UInt8(truncatingIfNeeded: seed >> 16)
        }
        Files.write(bytes, to: path)
        harness.daemonAudioDevice = "paced:4"
        return harness
    }

    @Test func playingIntoTheDamageStopsThereSaysSoAndKeepsThePlace() {
        let harness = damagedHarness()
        harness.start()
        #expect(harness.ctl("play", "long").status == 0)
        let stopped = statusJSON(harness.waitForStatus { $0.contains("\"state\":\"paused\"") || $0.contains("\"state\":\"ended\"") })
        #expect(stopped["state"]?.stringValue == "paused", "\(stopped)")
        #expect(stopped["pauseReason"]?.stringValue == "damagedRecording", "\(stopped)")
        #expect(stopped["error"]?.stringValue?.contains("damaged") == true, "\(stopped)")
        let position = stopped["position"]?.doubleValue ?? -1
        let length = stopped["duration"]?.doubleValue ?? 0
        #expect(position > 4 && position < length - 2, "stopped at \(position) of \(length) s: not at the end")
        // The place is kept, not cleared as an end would.
        #expect(stopped["lastCheckpoint"]?["position"]?.doubleValue == position, "\(stopped)")
        let recent = statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue ?? []
        #expect(recent.first?["completed"]?.boolValue != true, "\(recent)")
        let (exit, log) = harness.stop()
        #expect(exit == 0)
        #expect(log.contains("decoding") && log.contains("failed at frame"), "\(log)")
        // After a restart the box offers to resume where it stopped.
        harness.start()
        let offered = statusJSON(harness.ctl("status", "--json").stdout)
        #expect(offered["resumeOffer"]?["session"]?.stringValue == "long", "\(offered)")
        harness.stop()
    }

    @Test func theKnobCanSkipPastTheDamage() {
        let harness = damagedHarness()
        harness.start()
        #expect(harness.ctl("play", "long").status == 0)
        let stopped = statusJSON(harness.waitForStatus { $0.contains("damagedRecording") })
        let length = stopped["duration"]?.doubleValue ?? 20
        let beyond = Int(length) - 3 // past the damage, which starts near 8 s and lasts about a second
        #expect(harness.ctl("seek", "0:\(beyond)").status == 0)
        #expect(harness.ctl("resume").status == 0)
        let after = statusJSON(harness.waitForStatus { $0.contains("\"state\":\"ended\"") || (statusJSON($0)["position"]?.doubleValue ?? 0) > Double(beyond) + 1 })
        #expect((after["position"]?.doubleValue ?? 0) > Double(beyond), "\(after)")
        #expect(after["pauseReason"]?.stringValue != "damagedRecording", "\(after)")
        harness.stop()
    }
}
