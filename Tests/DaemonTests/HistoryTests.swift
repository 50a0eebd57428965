import ControlProtocol
import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// Honest history through the daemon (in this process, on virtual time) and the real CLI (listening is
/// counted in frames heard, so the pace of the sink changes nothing but the test's duration).
@Suite struct HistoryTests {
    @Test func aSessionHeardToTheEndCompletesASeekToTheEndAddsNothingDeletionIsComplete() throws {
        let harness = DrivenDaemon()
        harness.daemonAudioDevice = "paced:8"
        try harness.start()
        // Seek straight to the end: almost nothing heard, no run recorded.
        harness.ctl("play", "long")
        harness.ctl("seek", "0:19")
        _ = harness.waitForStatus { statusReport($0).state == .ended }
        #expect(statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue?.isEmpty == true)

        // Heard from start to end: one run, about 20 s, completed.
        harness.ctl("play", "long")
        _ = harness.waitForStatus { statusReport($0).state == .ended }
        let recent = statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue ?? []
        #expect(recent.count == 1)
        #expect(recent.first?["completed"]?.boolValue == true)
        let seconds = recent.first?["seconds"]?.doubleValue ?? 0
        #expect(seconds >= 19.5 && seconds <= 20.5)
        #expect(harness.ctl("history").stdout.contains("All time: 0 minutes in 1 session, 1 completed"))

        let csv = harness.ctl("history", "export", "--format", "csv").stdout
        #expect(csv.utf8.split(separator: 0x0A).count == 2) // the header and one run (CRLF lines, RFC 4180)
        let refused = harness.ctl("history", "delete", "--all")
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("add --yes"))
        #expect(harness.ctl("history", "delete", "--all", "--yes").stdout == "Deleted 1 run.\n")
        #expect(statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue?.isEmpty == true)
        harness.stop()
        // The daemon down: history still answers from the database.
        #expect(harness.ctl("history", "recent").stdout == "No practice recorded yet.\n")
    }
}
