import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// `screenshot PATH` writes where a socket client says, as the daemon's user: an attack on the database
/// through it is refused. A link to `stillroom.db` was followed and the database overwritten; an existing
/// file that is not a PNG was replaced. The daemon in this process, the real CLI.
@Suite struct ScreenshotTargetTests {
    func box() throws -> DrivenDaemon {
        let harness = DrivenDaemon()
        harness.extraArguments = ["--display", "png:" + harness.directory.file("screen.png"), "--preview", "off"]
        try harness.start()
        return harness
    }

    var databaseHeader: [UInt8] { Array("SQLite format 3".utf8) }

    @Test func aLinkToTheDatabaseIsRefusedAndTheDatabaseKept() throws {
        let harness = try box()
        defer { harness.stop() }
        let database = harness.dataDirectory + "/stillroom.db"
        let before = Files.read(database)
        let link = harness.directory.file("shot.png")
        try #require(symlink(database, link) == 0)
        let asked = harness.ctl("screenshot", link)
        #expect(asked.status != 0, "\(asked)")
        #expect(asked.stderr.contains("symbolic link"), "\(asked.stderr)")
        #expect(Files.read(database) == before, "the database was written through the link")
        #expect(Array(Files.read(database).prefix(15)) == databaseHeader)
        #expect(harness.ctl("status").status == 0)
    }

    @Test func anExistingFileThatIsNotAPNGIsLeftAlone() throws {
        let harness = try box()
        defer { harness.stop() }
        let notes = harness.directory.file("notes.png")
        Files.write("my notes, not a picture", to: notes)
        let asked = harness.ctl("screenshot", notes)
        #expect(asked.status != 0, "\(asked)")
        #expect(asked.stderr.contains("is not a PNG"), "\(asked.stderr)")
        #expect(String(decoding: Files.read(notes), as: UTF8.self) == "my notes, not a picture")
    }

    @Test func aNewFileAndAnOldScreenshotAreWrittenWhole() throws {
        let harness = try box()
        defer { harness.stop() }
        let shot = harness.directory.file("shot.png")
        #expect(harness.ctl("screenshot", shot).status == 0)
        let first = Files.read(shot)
        #expect(Array(first.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(harness.ctl("screenshot", shot).status == 0, "an earlier screenshot is replaced")
        var info = stat()
        #expect(lstat(shot, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
        // Nothing is left beside it.
        #expect(runShell("ls -a '\(harness.directory.path)' | grep -c '\\.new$'") != 0)
    }
}
