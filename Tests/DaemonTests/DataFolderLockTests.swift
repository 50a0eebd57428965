import DrivenDaemonSupport
import Glibc
import SystemCalls
import TestSupport
import Testing

/// One daemon per data folder: a second one refuses to start rather than share the database.
@Suite struct DataFolderLockTests {
    @Test func aSecondDaemonOnTheSameDataFolderExitsOneNamingTheFirst() throws {
        let harness = DaemonHarness()
        harness.start()
        let first = try #require(harness.daemon?.pid)
        // Another socket, so only the data folder is shared.
        let second = Subprocess.run(BuiltProducts.path("stillroomd"),
                                    ["--data-dir", harness.dataDirectory, "--content-dir", harness.content, "--display", "none",
                                     "--input", "none", "--socket", harness.directory.file("run/second.sock"), "--audio-device", "paced"])
        #expect(second.status == 1)
        let lines = second.stderr.split(separator: "\n").filter { $0.hasPrefix("<3>") }
        #expect(lines.count == 1, "\(second.stderr)")
        #expect(lines.first?.contains("data directory \(harness.dataDirectory) is in use by another stillroomd (pid \(first))") == true,
                "\(second.stderr)")
        #expect(harness.ctl("status").status == 0) // the first carries on
        let (status, _) = harness.stop()
        #expect(status == 0)
        harness.start() // the lock goes with the process
        #expect(harness.ctl("status").status == 0)
        harness.stop()
    }

    /// On a read-only data folder the holder cannot write its pid into the lock file, which keeps a pid
    /// from before (a daemon long gone, or now an unrelated process): the refusal names the holder the
    /// kernel knows, never that stale pid. A tmpfs remounted read-only, the real binaries.
    @Test func onAReadOnlyFolderTheRefusalNamesTheRealHolderNotAStalePID() throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let harness = DaemonHarness()
        let disk = try SmallDisk(at: harness.dataDirectory, kibibytes: 8192)
        defer {
            harness.stop()
            disk.unmount()
        }
        harness.start()
        let stale = try #require(harness.daemon?.pid)
        harness.stop()
        #expect(runShell("mount -o remount,ro '\(harness.dataDirectory)'") == 0)
        harness.start()
        let holder = try #require(harness.daemon?.pid)
        #expect(holder != stale)
        let second = Subprocess.run(BuiltProducts.path("stillroomd"),
                                    ["--data-dir", harness.dataDirectory, "--content-dir", harness.content, "--display", "none",
                                     "--input", "none", "--socket", harness.directory.file("run/second.sock"), "--audio-device", "paced"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("in use by another stillroomd (pid \(holder))"), "\(second.stderr)")
        #expect(!second.stderr.contains("pid \(stale)"), "named the stale pid: \(second.stderr)")
        harness.stop()
        #expect(runShell("mount -o remount,rw '\(harness.dataDirectory)'") == 0)
    }

    /// The daemon runs, the CLI is given another socket: it says the daemon runs and the socket is wrong,
    /// not "the daemon is not running", "no practice history yet" or "start stillroomd once" from the files.
    @Test func aWrongSocketWithTheDaemonRunningSaysSoInsteadOfAnsweringFromTheFiles() throws {
        let harness = DaemonHarness()
        harness.start()
        defer { harness.stop() }
        let pid = try #require(harness.daemon?.pid)
        #expect(harness.ctl("play", "sweep").status == 0)
        for command in [["status"], ["history"], ["doctor"], ["sessions"], ["play", "sweep"], ["update", "status"]] {
            let asked = Subprocess.run(BuiltProducts.path("stillroomctl"),
                                       ["--socket", harness.directory.file("run/wrong.sock"), "--data-dir", harness.dataDirectory,
                                        "--content-dir", harness.content] + command)
            let said = asked.stdout + asked.stderr
            #expect(asked.status == 3, "\(command): \(asked.status) \(said)")
            #expect(said.contains("stillroomd is running (pid \(pid)"), "\(command): \(said)")
            for falsehood in ["not running", "no practice history yet", "start stillroomd once"] {
                #expect(!said.contains(falsehood), "\(command): \(said)")
            }
        }
        harness.stop()
        // Stopped: the files answer again, as before.
        let offline = Subprocess.run(BuiltProducts.path("stillroomctl"),
                                     ["--socket", harness.directory.file("run/wrong.sock"), "--data-dir", harness.dataDirectory,
                                      "--content-dir", harness.content, "status"])
        #expect(offline.status == 0, "\(offline)")
        #expect(offline.stdout.hasPrefix("Stopped"), "\(offline)")
    }

    /// The data folder is the daemon's, so its lock file is what a hostile daemon makes it: a FIFO there
    /// made root's stillroomctl hang in open(2) waiting for a writer, a link or a device could be opened.
    /// The CLI only looks (lstat), never opens it: with the daemon down it answers from the files at once.
    @Test func aLockFileTheDaemonMadeAFIFOOrALinkNeverStopsTheCLI() throws {
        let harness = DaemonHarness()
        harness.start()
        harness.stop()
        let lock = harness.dataDirectory + "/stillroomd.lock"
        for plant in ["mkfifo '\(lock)'", "ln -s /dev/zero '\(lock)'", "ln -s /etc/shadow '\(lock)'"] {
            #expect(runShell("rm -f '\(lock)' && \(plant)") == 0)
            // A guard against the hang itself (timeout's 124), not a timing.
            let asked = Subprocess.run("/usr/bin/timeout", ["20", BuiltProducts.path("stillroomctl"), "--socket", harness.socketPath,
                                                            "--data-dir", harness.dataDirectory, "--content-dir", harness.content, "status"])
            #expect(asked.status == 0, "\(plant): \(asked)")
            #expect(asked.stdout.hasPrefix("The daemon is not running") || asked.stdout.hasPrefix("Stopped"), "\(plant): \(asked.stdout)")
        }
    }

    @Test func theHolderIsReadFromTheKernelsLockTable() throws {
        let directory = TemporaryDirectory("stillroom-lock")
        defer { directory.remove() }
        let fd = open(directory.file("lock"), O_RDWR | O_CREAT, 0o600)
        defer { close(fd) }
        #expect(FileLocks.flockHolder(of: fd) == nil, "nobody holds it yet")
        #expect(flock(fd, LOCK_EX) == 0)
        #expect(FileLocks.flockHolder(of: fd) == getpid())
        // A table with only a waiter's line, or garbage, tells nobody.
        var info = stat()
        fstat(fd, &info)
        Files.write("1: -> FLOCK  ADVISORY  WRITE 77 00:00:\(info.st_ino) 0 EOF\nnot a line\n", to: directory.file("locks"))
        #expect(FileLocks.flockHolder(of: fd, locksPath: directory.file("locks")) == nil)
    }

    /// A child forked by anything else in the process (a helper, or another test here) holds a copy of the
    /// lock's descriptor until its exec closes it. A daemon stopped cleanly in that moment must still let
    /// the folder go, or one started at once on it is refused (it was, once, in CI). The copy is made here
    /// with dup, which shares the lock as a fork's copy does, and kept across the restart.
    @Test func aCleanStopLetsTheFolderGoEvenWhileACopyOfTheLockIsHeldElsewhere() throws {
        let harness = DrivenDaemon()
        try harness.start()
        let lockPath = harness.dataDirectory + "/stillroomd.lock"
        let original = try #require(Self.descriptor(of: lockPath), "the daemon holds no descriptor of \(lockPath)")
        let copy = dup(original)
        try #require(copy >= 0)
        defer { close(copy) }
        #expect(harness.stop().status == 0)
        #expect(throws: Never.self) { try harness.start() }
        #expect(harness.status().state != .unknown)
        harness.stop()
    }

    /// The descriptor in this process open on `path` (from /proc/self/fd).
    private static func descriptor(of path: String) -> Int32? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let fd = Int32(name) else { continue }
            var target = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
            if count > 0, String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == path { return fd }
        }
        return nil
    }
}
