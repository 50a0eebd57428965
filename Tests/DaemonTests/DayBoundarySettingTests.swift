import DrivenDaemonSupport
import SQLiteStore
import StillroomCore
import TestSupport
import Testing

/// The day boundary through the daemon (in this process, on virtual time) and the real CLI: an afternoon
/// value is refused with a reason, and one stored by an older version is reported to the owner, not
/// silently swapped for 04:00.
@Suite struct DayBoundarySettingTests {
    @Test func anAfternoonBoundaryIsRefusedWithWhatTheSettingTakes() throws {
        let harness = DrivenDaemon()
        try harness.start()
        for value in ["12:00", "23:30"] {
            let refused = harness.ctl("settings", "set", "day-boundary", value)
            #expect(refused.status == 2, "\(value): \(refused)")
            #expect(refused.stderr.contains("between 00:00 and 11:59"), "\(refused.stderr)")
        }
        #expect(harness.ctl("settings", "set", "day-boundary", "03:30").status == 0)
        #expect(harness.ctl("settings").stdout.contains("day-boundary    03:30"))
        harness.stop()
    }

    @Test func aStoredAfternoonBoundaryIsReportedReplacedAndSavedOnce() throws {
        let harness = DrivenDaemon()
        try harness.start()
        harness.stop()
        // What an older version accepted and stored.
        do {
            let store = try SQLiteStore.open(path: harness.dataDirectory + "/stillroom.db", now: 1_773_526_503_000).store
            defer { store.close() }
            try store.setSetting("day-boundary", to: "23:30", now: 1_773_526_503_000)
        }

        try harness.start()
        #expect(harness.ctl("settings").stdout.contains("day-boundary    04:00"))
        let notices = statusJSON(harness.ctl("status", "--json").stdout)["notices"]?.arrayValue ?? []
        let notice = notices.first { $0["kind"]?.stringValue == "setting-replaced" }
        let message = notice?["message"]?.stringValue ?? ""
        #expect(message.contains("\"23:30\"") && message.contains("It is now 04:00"), "notices: \(notices)")
        let (_, log) = harness.stop()
        #expect(log.contains("setting day-boundary"), "\(log)")

        // Saved as what the box uses, so the next start has nothing to report.
        let store = try SQLiteStore.openReadOnly(path: harness.dataDirectory + "/stillroom.db")
        #expect(try store.setting("day-boundary") == "04:00")
        store.close()
        try harness.start()
        let again = statusJSON(harness.ctl("status", "--json").stdout)["notices"]?.arrayValue ?? []
        #expect(again.filter { $0["kind"]?.stringValue == "setting-replaced" }.count == 1) // the one notice, not a second
        harness.stop()
    }
}
