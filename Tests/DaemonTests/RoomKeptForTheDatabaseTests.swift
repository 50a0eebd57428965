import Glibc
@testable import StillroomDaemon
import TestSupport
import Testing

/// The room the daemon keeps for the database, on real file systems: kept when there is room, made whole
/// again after a cut left it short, never taken from a card that has little, given back on a full one.
/// (FullCardSettingsTests runs the whole daemon on a full card.)
@Suite struct RoomKeptForTheDatabaseTests {
    static let name = RoomKeptForTheDatabase.fileName

    func allocatedBytes(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_blocks) * 512 : nil
    }

    @Test func madeOnceThenKeptAndMadeWholeAfterACut() {
        let directory = TemporaryDirectory("stillroom-room")
        defer { directory.remove() }
        #expect(RoomKeptForTheDatabase.prepare(inDataDirectory: directory.path) == .made)
        #expect(allocatedBytes(directory.file(Self.name)) == 256 * 1024)
        #expect(RoomKeptForTheDatabase.prepare(inDataDirectory: directory.path) == .kept)
        // A cut while it was being made: a short file.
        truncate(directory.file(Self.name), 1000)
        #expect(RoomKeptForTheDatabase.prepare(inDataDirectory: directory.path) == .made)
        #expect(allocatedBytes(directory.file(Self.name)) == 256 * 1024)
    }

    @Test func givenBackOnAFullCardAndNeverTakenFromALittleRoom() throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let directory = TemporaryDirectory("stillroom-room")
        defer { directory.remove() }
        let disk = try SmallDisk(at: directory.file("card"), kibibytes: 4096)
        defer { disk.unmount() }
        #expect(RoomKeptForTheDatabase.prepare(inDataDirectory: disk.path) == .made)
        disk.fill()
        #expect(RoomKeptForTheDatabase.prepare(inDataDirectory: disk.path) == .givenBack(availableBefore: 0))
        #expect(allocatedBytes(disk.path + "/" + Self.name) == nil)
        #expect(disk.availableBytes >= 256 * 1024)
        // 256 KiB free, less than the 1 MiB it needs to be kept again: not taken.
        #expect(RoomKeptForTheDatabase.prepare(inDataDirectory: disk.path) == .none)
        disk.makeRoom()
        disk.fill(leavingBytes: 768 * 1024)
        #expect(RoomKeptForTheDatabase.prepare(inDataDirectory: disk.path) == .none)
        disk.makeRoom()
        #expect(RoomKeptForTheDatabase.prepare(inDataDirectory: disk.path) == .made)
    }

    /// What someone may have left at its name: a symbolic link is replaced, never followed (its target is
    /// untouched); a folder stays, is reported, and the daemon starts and saves as usual.
    @Test func aLinkOrAFolderAtItsNameIsNeverFollowedAndNeverStopsTheBox() {
        let directory = TemporaryDirectory("stillroom-room")
        defer { directory.remove() }
        Files.write("the owner's notes", to: directory.file("notes.txt"))
        symlink(directory.file("notes.txt"), directory.file(Self.name))
        #expect(RoomKeptForTheDatabase.prepare(inDataDirectory: directory.path) == .made)
        #expect(String(decoding: Files.read(directory.file("notes.txt")), as: UTF8.self) == "the owner's notes")
        var info = stat()
        #expect(lstat(directory.file(Self.name), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)

        let harness = DaemonHarness()
        mkdir(harness.dataDirectory, 0o750)
        mkdir(harness.dataDirectory + "/" + Self.name, 0o700)
        harness.start()
        let status = statusJSON(harness.ctl("status", "--json").stdout)
        #expect(status["storage"]?["canSave"]?.boolValue == true, "\(status)")
        #expect(harness.ctl("favorite", "add", "sweep").status == 0)
        let log = harness.stop().log
        #expect(log.contains("no room kept for the database"), "\(log)")
    }
}
