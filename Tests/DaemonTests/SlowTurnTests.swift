import DrivenDaemonSupport
import TestSupport
import Testing

/// A turn of the daemon's loop that keeps everything else waiting long enough to bring the watchdog's ping
/// near too late is said in the journal with its length, before systemd's kill would be the only word.
/// The daemon here runs on virtual time; the stall is a handler on its loop that moves the clock itself.
@Suite struct SlowTurnTests {
    @Test func aStallOverAQuarterOfTheWatchdogIsLoggedWithItsLengthAndAShorterOneIsNot() throws {
        // WatchdogSec=10s: pings every 5 s, and turns over 2.5 s are said.
        let harness = DrivenDaemon(environment: ["WATCHDOG_USEC": "10000000"])
        try harness.start()
        let loop = try #require(harness.virtual)
        let short = loop.loop.makeTimer { harness.clock.advance(by: .milliseconds(2_500)) }
        short.schedule(after: .seconds(1))
        try loop.advance(by: .seconds(10))
        #expect(!harness.log.contains("loop: one turn"), "\(harness.log)")
        let long = loop.loop.makeTimer { harness.clock.advance(by: .milliseconds(7_250)) }
        long.schedule(after: .seconds(1))
        try loop.advance(by: .seconds(10))
        #expect(harness.log.contains("loop: one turn kept everything else waiting 7.3 s, of the watchdog's 10.0 s"), "\(harness.log)")
        #expect(harness.stop().status == 0)
    }
}
