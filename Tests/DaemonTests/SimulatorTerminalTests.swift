import Glibc
import TestSupport
import Testing

/// The simulator in a terminal window: closing the window ends it cleanly. Before, the kernel's SIGHUP
/// reloaded the catalog, the keys' end said "keys are off", and the daemon ran on holding `.sim`, so the
/// next `scripts/run` was refused. The real binary on a real pseudo-terminal (python3's pty, which
/// scripts/setup installs).
@Suite struct SimulatorTerminalTests {
    @Test func closingTheTerminalStopsTheSimulatorCleanlyAndFreesItsFolder() throws {
        guard Requirement.need(Files.exists("/usr/bin/python3"), "python3 is not installed") else { return }
        let harness = DaemonHarness(content: RepositoryPaths.content)
        let arguments = ["--simulator", "--data-dir", harness.dataDirectory, "--content-dir", harness.content,
                         "--socket", harness.socketPath, "--display", "none", "--audio-device", "paced"]
        let run = Subprocess.run("/usr/bin/python3", [RepositoryPaths.fixture("terminal/run-on-a-pty.py"), "input: terminal",
                                                      BuiltProducts.path("stillroomd")] + arguments)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first == "exit 0", "\(run.stdout.suffix(2000)) \(run.stderr)")
        #expect(run.stdout.contains("input: terminal"), "it never got ready: \(run.stdout.suffix(2000))")
        // The folder is free: the next simulator starts on it.
        harness.start()
        #expect(harness.ctl("status").status == 0)
        harness.stop()
    }
}
