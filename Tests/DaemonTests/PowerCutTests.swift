import Glibc
import StillroomCore
import TestSupport
import Testing

/// The JSON that `stillroomctl status --json` printed.
func statusJSON(_ text: String) -> JSONValue { (try? JSONValue.parse(Array(text.utf8))) ?? .null }

@Suite struct PowerCutTests {
    @Test func killNineMidPlaybackThenTheResumeOfferIsWithinTenSecondsOfWhatWasHeard() {
        let harness = DaemonHarness()
        harness.start()
        #expect(harness.ctl("play", "long").status == 0)
        // The periodic checkpoint (every 10 s of playback) has been written once playback passes 10 s.
        let running = harness.waitForStatus { (statusJSON($0)["lastCheckpoint"]?["position"]?.doubleValue ?? 0) > 0 }
        let heard = statusJSON(running)["position"]?.doubleValue ?? 0
        harness.stop(signal: SIGKILL) // a power cut, as far as the process can tell

        harness.start()
        let offered = harness.ctl("status", "--json").stdout
        let offer = statusJSON(offered)["resumeOffer"]?["position"]?.doubleValue ?? -1
        #expect(offered.contains("\"state\":\"idle\"")) // never plays by itself
        #expect(offer >= 0)
        #expect(offer <= heard) // rewound, never ahead of what was heard
        #expect(heard - offer <= 10 + 5) // at most 10 s of position lost, plus the 5 s rewind on offer
        // Accept it: playback continues from the offered place.
        #expect(harness.ctl("play").status == 0)
        let resumed = harness.waitForStatus { $0.contains("\"state\":\"playing\"") }
        #expect(resumed.contains("\"session\":\"long\""))
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(log.contains("database: opened the existing database")) // intact after the kill
    }
}
