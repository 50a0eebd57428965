import Glibc
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
}
