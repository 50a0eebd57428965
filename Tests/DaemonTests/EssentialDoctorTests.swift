import DrivenDaemonSupport
import TestSupport
import Testing

/// `stillroomctl doctor --essential`: what PLAY needs (database, content, audio output), asked of the running
/// daemon. The update's slot check keeps a new slot only when it passes (docs/updates.md).
@Suite struct EssentialDoctorTests {
    @Test func aWorkingBoxPassesWithItsThreeChecksOnly() throws {
        let harness = DrivenDaemon()
        try harness.start()
        let doctor = harness.ctl("doctor", "--essential")
        #expect(doctor.status == 0, "\(doctor)")
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.prefix(18) } == ["ok   database     ", "ok   content      ", "ok   audio output "], "\(doctor.stdout)")
        harness.stop()
    }

    @Test func noSoundOutputFailsIt() throws {
        let harness = DrivenDaemon()
        harness.daemonAudioDevice = "hw:CARD=NoSuchCard" // no such card: the open fails
        try harness.start()
        let doctor = harness.ctl("doctor", "--essential")
        #expect(doctor.status == 1, "\(doctor)")
        #expect(doctor.stdout.contains("FAIL audio output"), "\(doctor.stdout)")
        // The whole doctor fails too; --essential leaves out what PLAY does not need (disk space, clock).
        #expect(!doctor.stdout.contains("clock"), "\(doctor.stdout)")
        harness.stop()
    }

    /// The slot check asks the running daemon: with none, there is nothing to keep, never an offline answer.
    @Test func withTheDaemonDownItFailsInsteadOfAnsweringOffline() throws {
        let harness = DrivenDaemon()
        try harness.start()
        harness.stop()
        let doctor = harness.ctl("doctor", "--essential")
        #expect(doctor.status != 0, "\(doctor)")
        #expect(doctor.stderr.contains("the daemon is not running"), "\(doctor)")
    }
}
