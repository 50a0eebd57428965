import ControlProtocol
import Glibc
import SQLiteStore
import StillroomCore
import TestSupport
import Testing

/// Deleted history must end up unreadable in the files themselves, even when the card is too full to
/// wipe it at once: the deletion says what happened, and the wipe happens when there is room — after a
/// session, or at the next start after a power cut. "Unreadable" is checked on the raw bytes of every file
/// in the data folder (database, -wal, -shm), not through SQL.
@Suite struct HistoryPurgeTests {
    static let now: UnixMilliseconds = 1_773_526_503_000

    /// Many runs to keep (so wiping one means rewriting ~1 MB), and two runs marked to be deleted.
    func seed(_ database: String, markers: [String]) throws -> [String: Int64] {
        let store = try SQLiteStore.open(path: database, now: Self.now).store
        defer { store.close() }
        var ids: [String: Int64] = [:]
        try store.transaction {
            let padding = String(repeating: "p", count: 200)
            for index in 0..<4000 {
                _ = try store.insertPracticeRun(PracticeRunRecord(sessionID: "kept-\(index)-\(padding)", startedAt: Self.now,
                                                                  actualListeningSeconds: 60, recordingSeconds: 300,
                                                                  clockTrusted: true, updatedAt: Self.now))
            }
            for marker in markers {
                ids[marker] = try store.insertPracticeRun(PracticeRunRecord(sessionID: marker, startedAt: Self.now, actualListeningSeconds: 60,
                                                                            recordingSeconds: 300, clockTrusted: true, updatedAt: Self.now)).id
            }
        }
        return ids
    }

    @Test
    func aRunDeletedOnANearlyFullCardIsGoneAtOnceAndWipedWhenThereIsRoom() throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let harness = DaemonHarness()
        harness.daemonAudioDevice = "paced:8"
        let disk = try SmallDisk(at: harness.dataDirectory, kibibytes: 16 * 1024)
        defer {
            harness.stop()
            disk.unmount()
        }
        let first = "first-forgotten-evening-7f3a"
        let second = "second-forgotten-evening-9c1d"
        let ids = try seed(harness.dataDirectory + "/stillroom.db", markers: [first, second])
        harness.start()
        #expect(RawFileBytes.files(containing: first, in: harness.dataDirectory) != [])

        // Room for the deletion itself, not for rewriting the database without it.
        disk.fill(leavingBytes: 128 * 1024)
        let deleted = harness.ctl("history", "delete", "--run", String(ids[first] ?? 0))
        #expect(deleted.status == 0, "\(deleted)")
        #expect(deleted.stdout.contains("gone from the history") && deleted.stdout.contains("when there is room"), "\(deleted.stdout)")
        #expect(!harness.ctl("history", "recent", "--json").stdout.contains(first))
        #expect(RawFileBytes.files(containing: first, in: harness.dataDirectory) != []) // still on the card, for now

        // Room again: the next session's end wipes it, no restart needed.
        disk.makeRoom()
        #expect(harness.ctl("play", "sweep").status == 0)
        _ = harness.waitForStatus { statusReport($0).state == .ended }
        #expect(RawFileBytes.files(containing: first, in: harness.dataDirectory) == [])

        // Full again, the second run deleted, then the power is cut before any wipe: the next start wipes it.
        disk.fill(leavingBytes: 128 * 1024)
        #expect(harness.ctl("history", "delete", "--run", String(ids[second] ?? 0)).status == 0)
        #expect(RawFileBytes.files(containing: second, in: harness.dataDirectory) != [])
        harness.stop(signal: SIGKILL)
        disk.makeRoom()
        harness.start()
        #expect(RawFileBytes.files(containing: second, in: harness.dataDirectory) == [])
        let kept = statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue ?? []
        #expect(kept.count == 20 && kept.allSatisfy { $0["session"]?.stringValue?.hasPrefix("kept-") == true })
    }
}
