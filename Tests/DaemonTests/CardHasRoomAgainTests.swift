import Glibc
@testable import StillroomDaemon
import TestSupport
import Testing

/// A start on a card too full for the database to open for writing, then room again while the box runs (a
/// file copied there by hand is removed): the real daemon on a small tmpfs filled for real, the real CLI.
@Suite struct CardHasRoomAgainTests {
    /// The database opened read-only at that start used to stay so until the next start: the box played,
    /// said the card was full, and kept nothing of what followed on a card that had room (lifesim, seeds 44
    /// and 47: days of practice unkept). Now it opens for writing once the card has room, with no restart.
    @Test func aDatabaseOpenedReadOnlyOnAFullCardIsWrittenAgainOnceThereIsRoom() throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let harness = DaemonHarness(extraArguments: ["--time-warp", "10"])
        let disk = try SmallDisk(at: harness.dataDirectory, kibibytes: 16384)
        defer {
            harness.stop()
            disk.unmount()
        }
        harness.start()
        #expect(harness.ctl("favorite", "add", "sweep").status == 0)
        harness.stop(signal: SIGKILL) // its last commits left in the -wal: the read-only open reads a copy
        _ = unlink(harness.dataDirectory + "/" + RoomKeptForTheDatabase.fileName) // no room kept to give back
        disk.fill()
        harness.start()
        let full = statusJSON(harness.ctl("status", "--json").stdout)
        #expect(full["storage"]?["canSave"]?.boolValue == false, "\(full)")
        #expect(harness.ctl("favorite", "add", "long").status == 1)

        disk.makeRoom()
        #expect(harness.ctl("favorite", "add", "long").status == 0, "the card has room and the favourite was refused")
        let roomy = statusJSON(harness.ctl("status", "--json").stdout)
        #expect(roomy["storage"]?["canSave"]?.boolValue == true, "\(roomy)")
        #expect(!(roomy["notices"]?.arrayValue ?? []).contains { $0["kind"]?.stringValue == "storage-full" }, "\(roomy)")
        #expect(harness.ctl("play", "long").status == 0) // 20 s: a run long enough to keep
        _ = harness.waitForStatus { statusReport($0).state == .ended }
        let runs = statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue ?? []
        #expect(runs.contains { $0["session"]?.stringValue == "long" && $0["completed"]?.boolValue == true }, "\(runs)")

        // Kept on the card, not only shown: a power cut finds all of it, and the room kept for the database.
        let log = harness.stop(signal: SIGKILL).log
        #expect(log.contains("storage: the card has room again; database opened"), "\(log)")
        harness.start()
        let favourites = harness.ctl("sessions", "--favorites").stdout
        #expect(favourites.contains("sweep") && favourites.contains("long"), "\(favourites)")
        let after = statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue ?? []
        #expect(after.contains { $0["session"]?.stringValue == "long" && $0["completed"]?.boolValue == true }, "\(after)")
        var info = stat()
        #expect(stat(harness.dataDirectory + "/" + RoomKeptForTheDatabase.fileName, &info) == 0 && info.st_blocks * 512 == 256 * 1024)
    }

    /// Full and read-only at start (a failing card): room on it later does not make it writable, so the
    /// daemon tries the database for writing once, says why it could not, and goes on reading what was saved.
    @Test func aCardFullAndReadOnlyStaysReadableWhenRoomComesBack() throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let harness = DaemonHarness()
        let disk = try SmallDisk(at: harness.dataDirectory, kibibytes: 16384)
        defer {
            harness.stop()
            disk.setReadOnly(false)
            disk.unmount()
        }
        harness.start()
        #expect(harness.ctl("favorite", "add", "sweep").status == 0)
        harness.stop()
        _ = unlink(harness.dataDirectory + "/" + RoomKeptForTheDatabase.fileName)
        disk.fill()
        #expect(disk.setReadOnly(true))
        harness.start()
        // Room comes while it stays read-only (made writable to delete the filler, the daemon could take
        // the moment and open the database for writing: seen under a loaded machine's parallel tests).
        #expect(disk.resize(kibibytes: 32768, readOnly: true), "the read-only card could not be made larger")
        for _ in 0..<3 {
            let status = statusJSON(harness.ctl("status", "--json").stdout)
            #expect(status["storage"]?["canSave"]?.boolValue == false, "\(status)")
        }
        #expect(harness.ctl("sessions", "--favorites").stdout.contains("sweep"), "what was saved no longer shows")
        #expect(harness.ctl("favorite", "add", "long").status == 1)
        let log = harness.stop().log
        let tries = log.components(separatedBy: "still cannot be opened for writing").count - 1
        #expect(tries == 1, "tried \(tries) times: \(log)")
    }
}
