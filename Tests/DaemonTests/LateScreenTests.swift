import ControlProtocol
import Glibc
import TestSupport
import Testing

/// A DRM screen whose driver loads after the daemon has started (at boot the daemon does not wait for
/// udev's coldplug): the real daemon waits for a card in its DRM folder and plays meanwhile. The folder
/// here is a test's own (`--display drm:DIR`); no DRM device exists on this machine, so the nodes made are
/// files that are no screen, and the daemon must try each, say why it is not one, and go on waiting. The
/// QEMU system test loads a real driver late (bochs-drm) and sees the first frame drawn.
@Suite struct LateScreenTests {
    @Test func aScreenNotThereYetIsWaitedForWhileTheBoxPlays() throws {
        let harness = DaemonHarness()
        let dev = harness.directory.file("dev")
        let dri = dev + "/dri"
        #expect(mkdir(dev, 0o755) == 0)
        harness.extraArguments = ["--display", "drm:\(dri)"]
        harness.start()
        let daemon = try #require(harness.daemon)
        let waiting = daemon.readStderrLines(until: "until one appears in \(dri)")
        #expect(waiting.last?.contains("the box plays without a screen until one appears in \(dri)") == true, "\(waiting)")

        // Nothing on screen, and PLAY plays.
        #expect(harness.ctl("play", "long").status == 0)
        #expect(statusReport(harness.waitForStatus { statusReport($0).state == .playing }).live?.observed.screen == "none")

        // The folder appears (the first KMS driver loaded) with a node that is no screen.
        #expect(mkdir(dri, 0o755) == 0)
        #expect(runShell("touch '\(dri)/card0'") == 0)
        let first = daemon.readStderrLines(until: "still waiting")
        #expect(first.last?.contains("display: \(dri) appeared, but") == true, "\(first)")
        // Another node in the folder, now watched itself.
        #expect(runShell("touch '\(dri)/card1'") == 0)
        let second = daemon.readStderrLines(until: "still waiting")
        #expect(second.last?.contains("display: a DRM card appeared, but") == true, "\(second)")
        // A render node is no card: not tried.
        #expect(runShell("touch '\(dri)/renderD128'") == 0)

        let status = harness.ctl("status", "--json").stdout
        #expect(statusReport(status).state == .playing)
        let (exit, log) = harness.stop()
        #expect(exit == 0)
        #expect(!log.contains("Fatal error"))
        // Each node was tried once or twice (made, then its times set), never again because trying it
        // touched it: a watcher that woke itself tried them hundreds of thousands of times.
        let tries = (first + second + log.split(separator: "\n").map(String.init)).filter { $0.contains("still waiting") }
        #expect(tries.count >= 2 && tries.count <= 8, "\(tries.count) tries")
    }
}
