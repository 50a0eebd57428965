import Glibc
import SQLiteStore
import StillroomCore
@testable import StillroomDaemon
import TestSupport
import Testing

/// A change the card has no room to save is refused, and the box keeps doing what is saved: the data
/// folder is a small tmpfs filled for real, the daemon and CLI are the real binaries.
@Suite struct FullCardSettingsTests {
    /// The real daemon with its data folder on a small tmpfs (root only: skipped loudly without it, a failure
    /// under CI), both gone when `body` returns.
    func onSmallDisk(kibibytes: Int, _ body: (DaemonHarness, SmallDisk) throws -> Void) throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let harness = DaemonHarness()
        let disk = try SmallDisk(at: harness.dataDirectory, kibibytes: kibibytes)
        defer {
            harness.stop()
            disk.unmount()
        }
        try body(harness, disk)
    }

    @Test
    func aSettingThatCannotBeSavedIsRefusedAndTheBoxKeepsTheSavedValue() throws {
        try onSmallDisk(kibibytes: 4096) { harness, disk in
            // A notice to dismiss later (what a moved-aside database or a failed download leaves).
            let noticeID: Int64
            do {
                let store = try SQLiteStore.open(path: harness.dataDirectory + "/stillroom.db", now: 1_773_526_503_000).store
                defer { store.close() }
                noticeID = try store.addNotice(kind: .downloadFailed, message: "A notice to dismiss.", now: 1_773_526_503_000).id
            }
            harness.start()
            #expect(harness.ctl("settings", "set", "headphones-cap", "30").status == 0)
            #expect(harness.ctl("volume", "50").status == 0)

            var walInfo = stat()
            let walBytes = stat(harness.dataDirectory + "/stillroom.db-wal", &walInfo) == 0 ? Int(walInfo.st_size) : 0
            disk.fill()
            // A full card can still take commits that fit in the blocks the -wal already has (the store keeps
            // them and rewrites the -wal in place): a one-page change is 1 KiB and 24 bytes. Volume changes until
            // one is refused use up that room; the box keeps the last one it accepted, and from then on nothing
            // fits. Bounded both ways: some room is used, and no more than the -wal had.
            var kept = 50
            var accepted = 0
            for attempt in 0..<3000 {
                let value = 51 + attempt % 40 // always a change from the last
                let change = harness.ctl("volume", String(value))
                if change.status != 0 {
                    #expect(change.stderr.contains("volume stays \(kept)"), "\(change.stderr)")
                    break
                }
                kept = value
                accepted += 1
            }
            #expect(accepted < 3000 && accepted <= walBytes / 1048 + 4, "the full card took \(accepted) volume changes; the -wal had \(walBytes) bytes")
            let refused = harness.ctl("settings", "set", "headphones-cap", "20")
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("headphones-cap stays 30") && refused.stderr.contains("full"), "\(refused.stderr)")
            #expect(harness.ctl("settings").stdout.contains("headphones-cap  30 "))

            let volume = harness.ctl("volume", "10")
            #expect(volume.status == 1, "\(volume)")
            #expect(volume.stderr.contains("volume stays \(kept)"), "\(volume.stderr)")
            #expect(statusJSON(harness.ctl("status", "--json").stdout)["volume"]?.integerValue == kept)

            let dismiss = harness.ctl("dismiss", "--notice", String(noticeID))
            #expect(dismiss.status == 1, "\(dismiss)")
            #expect(dismiss.stderr.contains("full"), "\(dismiss.stderr)")
            let notices = statusJSON(harness.ctl("status", "--json").stdout)["notices"]?.arrayValue ?? []
            #expect(notices.contains { $0["id"]?.integerValue == Int(noticeID) })

            // These already refused on a full card; kept here so they stay that way.
            #expect(harness.ctl("favorite", "add", "sweep").status == 1)
            #expect(harness.ctl("reminder", "set", "21:00").status == 1)

            // After a restart the box does what was saved, and that is what it said it kept.
            disk.makeRoom()
            harness.stop(signal: SIGKILL)
            harness.start()
            #expect(harness.ctl("settings").stdout.contains("headphones-cap  30 "))
            #expect(statusJSON(harness.ctl("status", "--json").stdout)["volume"]?.integerValue == kept)
        }
    }

    /// A card filled to its last block while the daemon was stopped (a file copied there by hand, say): SQLite
    /// needs room for the database's -shm and -wal to open it for writing. The daemon gives back the room it
    /// keeps for that, so the box starts able to save, instead of read-only and saying the card may be failing
    /// (as it did: the database opened read-only, and nothing could be removed through it to make room).
    /// The blocks the room kept for the database holds on the card, or nil when it is not there.
    func roomBytes(_ harness: DaemonHarness) -> Int? {
        var info = stat()
        let room = harness.dataDirectory + "/" + RoomKeptForTheDatabase.fileName
        return stat(room, &info) == 0 ? Int(info.st_blocks) * 512 : nil
    }

    @Test
    func aCardFullAtStartGivesTheDatabaseTheRoomKeptForIt() throws {
        try onSmallDisk(kibibytes: 16384) { harness, disk in
            func roomBytes() -> Int? { self.roomBytes(harness) }
            harness.start()
            #expect(roomBytes() == 256 * 1024, "no room kept (allocated, not sparse) at start")
            #expect(harness.ctl("favorite", "add", "sweep").status == 0)
            disk.fill()
            harness.stop()
            harness.start()
            let status = statusJSON(harness.ctl("status", "--json").stdout)
            #expect(status["storage"]?["canSave"]?.boolValue == true, "\(status)")
            #expect(!(status["notices"]?.arrayValue ?? []).contains { $0["kind"]?.stringValue == "storage-read-only" }, "\(status)")
            #expect(roomBytes() == nil, "the room kept was not given back")
            // What fits is saved: the favourite goes, and stays gone after a restart.
            #expect(harness.ctl("favorite", "remove", "sweep").status == 0)
            disk.makeRoom()
            let log = harness.stop(signal: SIGKILL).log
            #expect(log.contains("the card is full") && log.contains("gave the database the 256 KiB kept for it"), "\(log)")
            harness.start()
            #expect(!harness.ctl("sessions", "--favorites").stdout.contains("sweep"))
            #expect(roomBytes() == 256 * 1024, "with room again, none kept")
        }
    }

    /// The card full twice, with a power cut each time (lifesim, seeds 57 and 79): the first start gives the
    /// database the room kept for it; once the card has room again the room is made again at the first save,
    /// so the second start has room to give too. It used to be made only at a start: the second start found
    /// none, opened the database read-only, and the box kept nothing for as long as it then ran, on a card
    /// that had room.
    @Test
    func theRoomGivenBackIsMadeAgainOnceTheCardHasRoomSoASecondFullCardStillSaves() throws {
        try onSmallDisk(kibibytes: 16384) { harness, disk in
            harness.start()
            #expect(harness.ctl("favorite", "add", "sweep").status == 0)
            disk.fill()
            harness.stop(signal: SIGKILL)
            harness.start()
            #expect(roomBytes(harness) == nil, "the room kept was not given back on the full card")
            disk.makeRoom()
            #expect(harness.ctl("volume", "40").status == 0) // a save that goes through
            #expect(roomBytes(harness) == 256 * 1024, "the card has room, and the room given back was not made again")
            disk.fill()
            harness.stop(signal: SIGKILL)
            harness.start()
            let status = statusReport(harness.ctl("status", "--json").stdout)
            #expect(status.live != nil && status.live?.storageProblem == nil, "\(status.live?.storageProblem ?? "no answer")")
            #expect(harness.ctl("favorite", "remove", "sweep").status == 0, "the second full card left the database read-only")
        }
    }

    /// Full before the box ever kept room (the first start on a full card): the database cannot be made, and
    /// doctor says the card is full and how to make room, not that it is failing.
    @Test
    func doctorSaysACardTooFullToOpenTheDatabaseIsFull() throws {
        try onSmallDisk(kibibytes: 4096) { harness, disk in
            disk.fill()
            harness.start()
            let doctor = harness.ctl("doctor", "--json")
            let checks = statusJSON(doctor.stdout)["checks"]?.arrayValue ?? []
            let storage = checks.first { $0["check"]?.stringValue == "storage" }
            #expect(storage?["ok"]?.boolValue == false, "\(doctor.stdout)")
            let fix = storage?["fix"]?.stringValue ?? ""
            #expect(fix.hasPrefix("the card is full") && !fix.contains("failing"), "\(fix)")
            // Room again: doctor's look opens the database for writing (CardHasRoomAgainTests), and says so.
            disk.makeRoom()
            let roomy = statusJSON(harness.ctl("doctor", "--json").stdout)["checks"]?.arrayValue?.first { $0["check"]?.stringValue == "storage" }
            #expect(roomy?["ok"]?.boolValue == true, "\(String(describing: roomy))")
        }
    }

    /// Full at start with no room kept (the room file gone): the database cannot open for writing, and what
    /// was saved still shows, read from a copy (it used to show an empty history and no favourites: the
    /// read-only open failed too, making its -shm on the full card, and the box fell back to an empty store).
    @Test
    func aCardFullAtStartWithNoRoomKeptStillShowsWhatWasSaved() throws {
        try onSmallDisk(kibibytes: 16384) { harness, disk in
            harness.start()
            #expect(harness.ctl("favorite", "add", "sweep").status == 0)
            harness.stop()
            _ = unlink(harness.dataDirectory + "/" + RoomKeptForTheDatabase.fileName)
            disk.fill()
            harness.start()
            let status = statusJSON(harness.ctl("status", "--json").stdout)
            #expect(status["storage"]?["canSave"]?.boolValue == false, "\(status)")
            #expect(harness.ctl("sessions", "--favorites").stdout.contains("sweep"), "what was saved does not show")
            // Said as a full card, not a failing one: SQLite's error there is an I/O error on the -shm.
            let kinds = (status["notices"]?.arrayValue ?? []).compactMap { $0["kind"]?.stringValue }
            #expect(kinds.contains("storage-full") && !kinds.contains("storage-read-only"), "\(kinds)")
            let problem = status["storage"]?["problem"]?.stringValue ?? ""
            #expect(problem.contains("the card is full") && !problem.contains("failed"), "\(problem)")
        }
    }
}
