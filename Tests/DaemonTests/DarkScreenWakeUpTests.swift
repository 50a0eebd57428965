import DrivenDaemonSupport
import Glibc
import TestSupport
import Testing

/// With the screen dark the box should wake only for the watchdog (bench/idle measures it). The minute
/// refresh of the on-screen clock was a second wake-up a minute; it now stops in the dark. Seen in the
/// daemon's loop (in this process, on virtual time): a wall-clock timer (the minute's) waits for the next
/// minute while the screen is lit, and none once it is dark; the loop arms its wall timerfd from exactly
/// that queue (EventLoopTests), at a far "never" deadline when it is empty.
@Suite struct DarkScreenWakeUpTests {
    @Test func theMinuteRefreshSleepsWhileTheScreenIsDark() throws {
        let harness = DrivenDaemon()
        harness.extraArguments = ["--display", "png@320x240:\(harness.directory.file("screen.png"))", "--preview", "off"]
        try harness.start()
        harness.request(.settings(change: .init(key: "dim-after", value: "5")))
        harness.request(.settings(change: .init(key: "dark-after", value: "10")))
        harness.stop()
        try harness.start() // the dim and dark timers start with the stored settings
        let loop = try #require(harness.virtual?.loop)

        #expect(harness.status().observed.screen == "on")
        let lit = try #require(loop.nextWallDeadline, "no wall-clock timer while the screen is lit").timeIntervalSince(loop.wallNow)
        #expect(lit > 0 && lit <= 60)

        // The dark timer fires 10 s after the start.
        let status = try harness.advance(until: { $0.observed.screen == "off" }, within: .seconds(60))
        #expect(status.observed.screen == "off")
        #expect(loop.nextWallDeadline == nil, "a wall-clock timer still waits in the dark")
        try harness.advance(by: .seconds(180))
        #expect(harness.status().observed.screen == "off", "the screen woke by itself")
    }
}

extension String {
    /// /proc files report a size of 0, so read until the end rather than by size.
    init(contentsOfProcFile path: String) throws {
        guard let file = fopen(path, "r") else { throw ProcReadError() }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        self = String(decoding: bytes, as: UTF8.self)
    }
}

struct ProcReadError: Error {}
