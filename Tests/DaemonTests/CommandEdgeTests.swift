import Glibc
import TestSupport
import Testing

/// Commands at their edges: nothing to play, malformed arguments, too many clients.
@Suite struct CommandEdgeTests {
    @Test func playOnAnEmptyLibraryFailsAndSaysWhy() {
        let directory = TemporaryDirectory("stillroom-empty")
        let content = directory.file("content")
        runShell("mkdir -p '\(content)'")
        Files.write("{\"schema\": 1, \"sessions\": [], \"sounds\": []}", to: content + "/catalog.json")
        let harness = DaemonHarness(content: content)
        defer { directory.remove() }
        harness.start()
        let play = harness.ctl("play")
        #expect(play.status == 1)
        #expect(play.stderr == "stillroomctl: there is nothing on this box to play yet; see stillroomctl sessions\n")
        harness.stop()
    }

    @Test func aSeekWithTwoSignsOrAMonthBeforeTheBoxIsRefused() {
        let harness = DaemonHarness()
        harness.start()
        harness.ctl("play", "long")
        let seek = harness.ctl("seek", "+-5")
        #expect(seek.status == 2)
        #expect(seek.stderr.hasPrefix("stillroomctl: seek: \"+-5\" is not a number of seconds"), "\(seek.stderr)")
        for month in ["0000-01", "2026-13", "2026-00"] {
            let history = harness.ctl("history", "--month", month)
            #expect(history.status == 2, "\(month)")
            #expect(history.stderr.hasPrefix("stillroomctl: --month takes YYYY-MM"), "\(month): \(history.stderr)")
        }
        harness.stop()
        let offline = harness.ctl("history", "--month", "0000-01")
        #expect(offline.status == 2)
    }

    @Test func aClientBeyondTheLimitIsToldTheBoxIsBusy() throws {
        let harness = DaemonHarness()
        harness.start()
        // Fill every place: each client is answered once, so the daemon has taken it in.
        var clients: [RawSocketClient] = []
        for id in 1...32 {
            let client = try #require(RawSocketClient(path: harness.socketPath))
            client.send("{\"v\":1,\"id\":\(id),\"command\":\"status\"}\n")
            #expect(client.readLines(1).first?.contains("\"ok\":true") == true)
            clients.append(client)
        }
        let extra = try #require(RawSocketClient(path: harness.socketPath))
        let refusal = extra.readLines(1)
        #expect(refusal.count == 1)
        #expect(refusal.first?.contains("\"code\":\"busy\"") == true, "\(refusal)")
        let ctl = harness.ctl("status")
        #expect(ctl.status == 1)
        #expect(ctl.stderr.hasPrefix("stillroomctl: the box is busy"), "\(ctl.stderr)")
        clients.removeAll()
        harness.stop()
    }
}
