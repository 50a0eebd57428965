import Glibc
import SystemCalls
import TestSupport
import Testing

@Suite struct FilesTests {
    @Test func readAllRefusesAFileOverItsLimit() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("big")
        try Files.replaceAtomically(path, with: [UInt8](repeating: 1, count: 70_001), temporary: path + ".tmp")
        #expect(try Files.readAll(path, limit: 70_001).count == 70_001)
        #expect(throws: SystemError("read", path: path, errno: EFBIG)) { _ = try Files.readAll(path, limit: 70_000) }
        #expect(throws: SystemError("open", path: directory.file("none"), errno: ENOENT)) {
            try Files.readAll(directory.file("none"), limit: 10)
        }
    }

    @Test func makeDirectoriesMakesParentsWithTheModeAndAcceptsWhatIsThere() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let deep = directory.file("a/b/c")
        let mask = umask(0)
        defer { umask(mask) }
        try Files.makeDirectories(deep, mode: 0o750)
        #expect(Files.isDirectory(deep))
        #expect(Files.status(directory.file("a/b"))!.st_mode & 0o777 == 0o750)
        try Files.makeDirectories(deep) // already there
        try Files.makeDirectories("/")
    }

    @Test func makeTemporaryFolderMakesANewPrivateFolderAndNamesIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Many made in a row: each name must come from the live template, not a buffer freed when mkdtemp
        // returned (reused memory crashed the release build; the system test's read-only card saw it).
        var made: Set<String> = []
        for _ in 0..<64 {
            let folder = try Files.makeTemporaryFolder(prefix: directory.file("scratch-"))
            #expect(folder.hasPrefix(directory.file("scratch-")) && folder.count == directory.file("scratch-").count + 6)
            #expect(Files.isDirectory(folder))
            #expect(Files.status(folder)!.st_mode & 0o777 == 0o700)
            made.insert(folder)
        }
        #expect(made.count == 64)
        #expect(throws: SystemError("mkdtemp", path: directory.file("none/scratch-XXXXXX"), errno: ENOENT)) {
            try Files.makeTemporaryFolder(prefix: directory.file("none/scratch-"))
        }
    }

    @Test func makeDirectoriesStopsAtAFileInTheWay() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try Files.replaceAtomically(directory.file("file"), with: [1], temporary: directory.file("file.tmp"))
        #expect(throws: SystemError("mkdir", path: directory.file("file/below"), errno: ENOTDIR)) {
            try Files.makeDirectories(directory.file("file/below/deeper"))
        }
    }

    @Test func makeDirectoriesOnAReadOnlyFileSystemSaysSo() throws {
        guard Requirement.need(geteuid() == 0, "mounting a read-only tmpfs needs root") else { return }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let mountPoint = directory.file("card")
        try #require(mkdir(mountPoint, 0o755) == 0)
        try #require(mount("tmpfs", mountPoint, "tmpfs", UInt(MS_RDONLY), "size=64k") == 0)
        defer { umount2(mountPoint, Int32(MNT_DETACH)) }
        #expect(throws: SystemError("mkdir", path: mountPoint + "/data", errno: EROFS)) {
            try Files.makeDirectories(mountPoint + "/data/stillroom")
        }
        #expect(throws: SystemError("mkdir", path: "/proc/stillroom", errno: ENOENT)) {
            try Files.makeDirectories("/proc/stillroom/data")
        }
    }

    @Test func listDirectoryGivesNamesWithoutDots() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        #expect(try Files.listDirectory(directory.path) == [])
        try Files.makeDirectories(directory.file("folder"))
        try Files.replaceAtomically(directory.file("file"), with: [1], temporary: directory.file(".file.tmp"))
        #expect(try Files.listDirectory(directory.path).sorted() == ["file", "folder"])
        #expect(throws: SystemError("opendir", path: directory.file("missing"), errno: ENOENT)) {
            try Files.listDirectory(directory.file("missing"))
        }
    }

    @Test func aFailedReplaceLeavesTheOldFileAndNoTemporary() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("settings")
        try Files.replaceAtomically(path, with: Array("old".utf8), temporary: path + ".tmp")
        try Files.makeDirectories(directory.file("blocker"))
        // A folder cannot be renamed over by a file: EISDIR, after the temporary was written.
        #expect(throws: SystemError.self) {
            try Files.replaceAtomically(directory.file("blocker"), with: Array("new".utf8), temporary: path + ".tmp")
        }
        #expect(try Files.readAll(path, limit: 10) == Array("old".utf8))
        #expect(!Files.isRegularFile(path + ".tmp"))
        try Files.syncDirectory(directory.path)
    }

    @Test func aPathsParentAndName() {
        #expect(Files.parent(of: "/dev/dri") == "/dev")
        #expect(Files.parent(of: "/dev") == "/")
        #expect(Files.parent(of: "card0") == ".")
        #expect(Files.parent(of: "run/control.sock") == "run")
        #expect(Files.name(of: "/dev/dri") == "dri")
        #expect(Files.name(of: "card0") == "card0")
    }
}
