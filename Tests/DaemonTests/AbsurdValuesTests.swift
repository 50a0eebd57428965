import ControlProtocol
import Glibc
import TestSupport
import Testing

/// Values no person means, sent to the real daemon: each is refused with `invalid_argument` or clamped,
/// and the daemon keeps running and keeps its place. (A seek of +1e15 seconds once trapped converting to
/// Int64 and took the box down.)
@Suite struct AbsurdValuesTests {
    @Test func hugeSeeksThroughTheCLIAreRefusedAndTheDaemonPlaysOn() {
        let harness = DaemonHarness()
        harness.start()
        #expect(harness.ctl("play", "long").status == 0)
        for text in ["+1e15", "-1e15", "1e15", "+9e18", "+86401"] {
            let seek = harness.ctl("seek", text)
            #expect(seek.status != 0, "seek \(text)")
            #expect(!seek.stderr.isEmpty, "seek \(text) says why")
        }
        let status = harness.ctl("status", "--json")
        #expect(status.status == 0)
        #expect(statusReport(status.stdout).state == .playing)
        // In range but past the end: clamped inside the recording, as the knob would be.
        #expect(harness.ctl("seek", "+86400").status == 0)
        let clamped = harness.ctl("status", "--json").stdout
        #expect((19...20).contains(statusReport(clamped).position), "\(clamped)")
        let (exit, log) = harness.stop()
        #expect(exit == 0)
        #expect(!log.contains("Fatal error"))
    }

    @Test func absurdNumbersOnTheWireGetInvalidArgumentAndHarmNothing() throws {
        let harness = DaemonHarness()
        harness.start()
        #expect(harness.ctl("play", "long").status == 0)
        let client = try #require(RawSocketClient(path: harness.socketPath))
        let requests = [
            #"{"v":1,"id":1,"command":"seek","arguments":{"by":1e15}}"#,
            #"{"v":1,"id":2,"command":"seek","arguments":{"by":-1e300}}"#,
            #"{"v":1,"id":3,"command":"seek","arguments":{"to":1e15}}"#,
            #"{"v":1,"id":4,"command":"seek","arguments":{"to":-5}}"#,
            #"{"v":1,"id":5,"command":"volume","arguments":{"level":1e300}}"#,
            #"{"v":1,"id":6,"command":"timer","arguments":{"action":"start","minutes":1e15}}"#,
            #"{"v":1,"id":7,"command":"history","arguments":{"view":"delete","run":9e18}}"#,
            #"{"v":1,"id":8,"command":"dismiss","arguments":{"notice":-9e18}}"#,
            #"{"v":1,"id":9,"command":"seek","arguments":{"by":"soon"}}"#,
        ]
        for request in requests { client.send(request + "\n") }
        let lines = client.readLines(requests.count)
        #expect(lines.count == requests.count)
        for (index, line) in lines.enumerated() {
            #expect(line.contains("\"ok\":false"), "request \(index + 1): \(line)")
            #expect(!line.contains("\"code\":\"failed\""), "request \(index + 1) is a bad argument, not a failure: \(line)")
        }
        let status = harness.ctl("status", "--json")
        #expect(status.status == 0)
        #expect(statusReport(status.stdout).state == .playing)
        let (exit, log) = harness.stop()
        #expect(exit == 0)
        #expect(!log.contains("Fatal error"))
    }
}
