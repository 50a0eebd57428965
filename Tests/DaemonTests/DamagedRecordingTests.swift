import ControlProtocol
import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// A recording damaged in the middle (20 kB of random bytes, as a bad sector or a broken copy leaves it).
/// The box must say the recording is damaged, keep the place, and not call it finished: it once ran to the
/// damage and said "Finished", filled the progress bar and cleared the checkpoint.
/// Through the daemon in this process, on virtual time.
@Suite struct DamagedRecordingTests {
    /// The harness's content with the 20-second sweep damaged from about 8 s on.
    func damagedHarness() -> DrivenDaemon {
        let harness = DrivenDaemon()
        let path = harness.content + "/sessions/long/audio.mp3"
        var bytes = Files.read(path)
        var seed: UInt32 = 12345
        let start = bytes.count * 2 / 5
        for index in start..<min(bytes.count, start + 20_000) {
            seed = seed &* 1_103_515_245 &+ 12345
            bytes[index] = UInt8(truncatingIfNeeded: seed >> 16)
        }
        Files.write(bytes, to: path)
        return harness
    }

    @Test func playingIntoTheDamageStopsThereSaysSoAndKeepsThePlace() throws {
        let harness = damagedHarness()
        try harness.start()
        #expect(throws: Never.self) { try harness.request(.play(session: "long")).get() }
        let stopped = try harness.advance(until: { [.paused, .ended].contains($0.state) }, within: .seconds(60))
        #expect(stopped.state == .paused, "\(stopped)")
        #expect(stopped.live?.pauseReason == .damagedRecording, "\(stopped)")
        #expect(stopped.live?.error?.contains("damaged") == true, "\(stopped)")
        let position = stopped.position
        let length = stopped.duration
        #expect(position > 4 && position < length - 2, "stopped at \(position) of \(length) s: not at the end")
        // The place is kept, not cleared as an end would.
        #expect(stopped.lastCheckpoint?.position == position, "\(stopped)")
        let recent = harness.result(.history(.recent))?.recentRuns?.runs ?? []
        #expect(recent.first?.completed != true, "\(recent)")
        #expect(harness.stop().status == 0)
        let log = harness.log
        #expect(log.contains("decoding") && log.contains("failed at frame"), "\(log)")
        // After a restart the box offers to resume where it stopped.
        try harness.start()
        let offered = harness.status()
        #expect(offered.resumeOffer?.session == "long", "\(offered)")
    }

    @Test func theKnobCanSkipPastTheDamage() throws {
        let harness = damagedHarness()
        try harness.start()
        #expect(throws: Never.self) { try harness.request(.play(session: "long")).get() }
        let stopped = try harness.advance(until: { $0.live?.pauseReason == .damagedRecording }, within: .seconds(60))
        let length = stopped.duration
        let beyond = (length - 3).rounded(.down) // past the damage, which starts near 8 s and lasts about a second
        #expect(throws: Never.self) { try harness.request(.seek(.to(seconds: beyond))).get() }
        #expect(throws: Never.self) { try harness.request(.resume).get() }
        let after = try harness.advance(until: { $0.state == .ended || $0.position > beyond + 1 },
                                        within: .seconds(60))
        #expect(after.position > beyond, "\(after)")
        #expect(after.live?.pauseReason != .damagedRecording, "\(after)")
    }
}
