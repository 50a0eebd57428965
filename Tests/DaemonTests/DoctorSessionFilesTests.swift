import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// `doctor` checks what the player will need, not only that the files are there: a transcript the player
/// cannot read (over 512 KiB, a cue over 1,000 characters) silently lost "press for the words" while doctor
/// said content was ok. The daemon in this process, the real CLI.
@Suite struct DoctorSessionFilesTests {
    func contentCheck(_ harness: DrivenDaemon) -> (status: Int32, check: JSONValue?) {
        let doctor = harness.ctl("doctor", "--json")
        let check = statusJSON(doctor.stdout)["checks"]?.arrayValue?.first { $0["check"]?.stringValue == "content" }
        return (doctor.status, check)
    }

    @Test(arguments: [
        ("too large", "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "a quiet line of words\n", count: 30_000), "512 KiB"),
        ("a long cue", "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "breathe ", count: 200) + "\n", "1000"),
    ])
    func aTranscriptThePlayerCannotReadFailsTheContentCheck(what: String, text: String, said: String) throws {
        let harness = DrivenDaemon()
        Files.write(text, to: harness.content + "/sessions/sweep/transcript.vtt")
        try harness.start()
        defer { harness.stop() }
        let (status, check) = contentCheck(harness)
        #expect(status != 0, "\(what): doctor passed")
        #expect(check?["ok"]?.boolValue == false, "\(what): \(String(describing: check))")
        let detail = check?["detail"]?.stringValue ?? ""
        #expect(detail.hasPrefix("1 problem: the transcript of sweep cannot be read"), "\(what): \(detail)")
        #expect(detail.contains(said), "\(what): \(detail)")
    }

    @Test func readableTranscriptsPass() throws {
        let harness = DrivenDaemon()
        try harness.start()
        defer { harness.stop() }
        let (status, check) = contentCheck(harness)
        #expect(check?["ok"]?.boolValue == true, "\(String(describing: check))")
        #expect(check?["detail"]?.stringValue?.contains("readable") == true)
        _ = status // other checks (the clock, the network) may fail on this machine
    }
}
