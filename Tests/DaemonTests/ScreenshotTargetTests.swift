import ControlProtocol
import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// `screenshot FILE.png`: the daemon writes the PNG only into its own screenshot folder, under a plain name,
/// and the CLI copies it to FILE as its own user. Once a socket client chose the path and the daemon's user
/// wrote there: a link to `stillroom.db` was followed and the database overwritten; an existing file that is
/// not a PNG was replaced. The daemon in this process, the real CLI, and requests as any client may send.
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

    /// A client that asks for a path, as the protocol once allowed, or names a folder, is refused: nothing is
    /// written outside the daemon's folder, the database least of all. Seen failing on the protocol before
    /// (the request with a path was answered and the database overwritten).
    @Test func aClientCannotChooseWhereTheDaemonWrites() throws {
        let harness = try box()
        defer { harness.stop() }
        let database = harness.dataDirectory + "/stillroom.db"
        let before = Files.read(database)
        for arguments: [String: JSONValue] in [["path": .string(database)], ["name": .string(database)],
                                               ["name": .string("../../data/stillroom.db.png")], ["path": .string(harness.directory.file("x.png"))]] {
            let answer = harness.request(raw: ControlRequest(id: 1, command: "screenshot", arguments: arguments))
            guard case .failure(let refusal) = answer else { Issue.record("answered \(arguments): \(answer)"); continue }
            #expect(refusal.message.contains("no folder"), "\(refusal.message)")
        }
        #expect(Files.read(database) == before, "the database was written")
        #expect(!Files.exists(harness.directory.file("x.png")))
    }

    /// The folder is in RAM: it keeps the newest eight, whatever names clients give (a name given again is
    /// the newest again).
    @Test func theScreenshotFolderKeepsTheNewestEight() throws {
        let harness = try box()
        defer { harness.stop() }
        let folder = harness.directory.file("run/screenshots")
        for shot in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] {
            let answer = harness.result(.screenshot(name: "shot-\(shot).png"))
            #expect(answer?.screenshot?.path == folder + "/shot-\(shot).png", "\(answer)")
        }
        let left = Subprocess.run("/bin/sh", ["-c", "ls '\(folder)' | sort -V | tr '\\n' ' '"]).stdout
        #expect(left == "shot-3.png shot-4.png shot-5.png shot-6.png shot-7.png shot-8.png shot-9.png shot-10.png ", "\(left)")
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o777 == 0o750)
    }
}
