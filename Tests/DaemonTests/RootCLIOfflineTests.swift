import Glibc
import Testing
import TestSupport

/// Root's `stillroomctl` with the daemon down reads the daemon's folder as its owner: a link the daemon put
/// where the doctor writes its probe is not followed as root, and SQLite leaves nothing of root's in the
/// folder. Seen failing as root: the victim, a root-only file, was truncated through `.write-probe`.
@Suite struct RootCLIOfflineTests {
    @Test func rootsOfflineCLIFollowsNoLinkOfTheDaemonsAndLeavesNothingOfRootsThere() throws {
        guard Requirement.need(geteuid() == 0, "acting as another user needs root") else { return }
        let harness = DaemonHarness()
        harness.start()
        #expect(harness.ctl("play", "sweep").status == 0)
        harness.stop()
        let directory = harness.dataDirectory
        chmod(harness.directory.path, 0o755)
        #expect(Subprocess.run("/bin/chown", ["-R", "4242:4242", directory]).status == 0)
        let victim = harness.directory.file("root-only")
        Files.write("root's secret\n", to: victim)
        chmod(victim, 0o600)
        symlink(victim, directory + "/.write-probe")
        lchown(directory + "/.write-probe", 4242, 4242)
        let ctl = { (arguments: [String]) in
            Subprocess.run(BuiltProducts.path("stillroomctl"), ["--socket", harness.directory.file("nobody.sock"),
                "--data-dir", directory, "--content-dir", harness.content] + arguments)
        }
        let doctor = ctl(["doctor"])
        #expect(String(decoding: Files.read(victim), as: UTF8.self) == "root's secret\n", "root wrote through the daemon's link")
        #expect(doctor.stdout.contains("storage") , "\(doctor)")
        let history = ctl(["history", "recent"])
        #expect(history.status == 0, "\(history)")
        let roots = Subprocess.run("/usr/bin/find", [directory, "-user", "root"]).stdout
        #expect(roots.isEmpty, "root's files in the daemon's folder: \(roots)")
    }
}
