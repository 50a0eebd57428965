import DrivenDaemonSupport
import Glibc
import SQLiteStore
import StillroomCore
import TestSupport
import Testing

/// A damaged database the store moved aside still holds the history it had. Deleting all history
/// removes those copies too (the confirmation says so): checked on the real files of the data folder.
@Suite struct MovedAsideHistoryTests {
    @Test func deletingAllHistoryRemovesTheDamagedCopiesThatStillHoldIt() throws {
        let harness = DrivenDaemon()
        let marker = "history-in-a-damaged-copy-4e2b"
        let database = harness.dataDirectory + "/stillroom.db"
        _ = mkdir(harness.dataDirectory, 0o755)
        do {
            let store = try SQLiteStore.open(path: database, now: 1_773_526_503_000).store
            defer { store.close() }
            for index in 0..<20 {
                _ = try store.insertPracticeRun(PracticeRunRecord(sessionID: "\(marker)-\(index)", startedAt: 1_773_526_503_000,
                                                                  actualListeningSeconds: 60, recordingSeconds: 300,
                                                                  clockTrusted: true, updatedAt: 1_773_526_503_000))
            }
        }
        // Damage the header: the next start moves the file aside, rows and all.
        var bytes = Files.read(database)
        for index in 0..<16 { bytes[index] = 0x5A }
        Files.write(bytes, to: database)

        try harness.start()
        // The damaged database and its (emptied) -wal move aside together.
        let copies = RawFileBytes.regularFiles(in: harness.dataDirectory).filter { $0.contains(".damaged-") }
        #expect(copies.count == 2 && copies.contains { $0.hasSuffix("-wal") }, "\(RawFileBytes.regularFiles(in: harness.dataDirectory))")
        let holding = RawFileBytes.files(containing: marker, in: harness.dataDirectory)
        #expect(!holding.isEmpty && holding.allSatisfy { copies.contains($0) }, "\(holding)")
        let notices = statusJSON(harness.ctl("status", "--json").stdout)["notices"]?.arrayValue ?? []
        #expect(notices.contains { $0["kind"]?.stringValue == "database-moved-aside" })

        // The confirmation names what goes.
        let asked = harness.ctl("history", "delete", "--all")
        #expect(asked.status == 2)
        #expect(asked.stderr.contains("damaged copies") && asked.stderr.contains("add --yes"), "\(asked.stderr)")

        let deleted = harness.ctl("history", "delete", "--all", "--yes")
        #expect(deleted.status == 0, "\(deleted)")
        #expect(deleted.stdout.contains("Removed 1 damaged copy"), "\(deleted.stdout)")
        #expect(RawFileBytes.regularFiles(in: harness.dataDirectory).filter { $0.contains(".damaged-") } == [])
        #expect(RawFileBytes.files(containing: marker, in: harness.dataDirectory) == [])
        // The notice named a file that is gone: it goes too.
        let after = statusJSON(harness.ctl("status", "--json").stdout)["notices"]?.arrayValue ?? []
        #expect(!after.contains { $0["kind"]?.stringValue == "database-moved-aside" })
        harness.stop()
    }
}
