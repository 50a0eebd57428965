import DrivenDaemonSupport
import StillroomCore
import TestSupport
import Testing

/// What the CLI says is what happened: the real CLI against the daemon in this process.
@Suite struct CLIHabitsTests {
    @Test func aSeekWhilePlayingAnswersWithTheNewPlace() throws {
        let harness = DrivenDaemon()
        try harness.start()
        defer { harness.stop() }
        #expect(harness.ctl("play", "long").status == 0)
        try harness.advance(by: .seconds(2))
        let seek = harness.ctl("seek", "12")
        #expect(seek.stdout.hasPrefix("Playing: Long sweep (long) at 0:12 of 0:20"), "\(seek)")
        let json = statusReport(harness.ctl("seek", "+3", "--json").stdout)
        #expect(abs(json.position - 15) < 0.001, "\(json)")
    }

    @Test func contradictoryOrExtraWordsAreUsageErrors() throws {
        let harness = DrivenDaemon()
        try harness.start()
        defer { harness.stop() }
        #expect(harness.ctl("play", "long").status == 0)
        try harness.advance(by: .seconds(12)) // a run to keep (saved at the ten-second checkpoint)
        let runs = { statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue?.count ?? -1 }
        let before = runs()
        #expect(before >= 1)
        let both = harness.ctl("history", "delete", "--all", "--yes", "--run", "1")
        #expect(both.status == 2 && both.stderr.contains("not both"), "\(both)")
        #expect(runs() == before, "a contradictory delete deleted something")
        for words in [["status", "extra"], ["timer", "stop", "now"], ["reminder", "off", "please"], ["history", "recent", "all"],
                      ["dismiss", "5"]] {
            let asked = harness.ctl(words)
            #expect(asked.status == 2, "\(words): \(asked)")
        }
        let unknown = harness.ctl("frob")
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Try 'stillroomctl --help'") && !unknown.stderr.contains("frob --help"), "\(unknown.stderr)")
    }

    @Test func sayAndTimerStopSayWhatTheyDid() throws {
        let harness = DrivenDaemon()
        try harness.start()
        defer { harness.stop() }
        let said = harness.ctl("say", "hello")
        #expect(said.status == 0 && said.stdout == "Said through the box: hello\n", "\(said)")
        #expect(harness.ctl("timer", "start", "--minutes", "1").status == 0)
        let stopped = harness.ctl("timer", "stop")
        #expect(stopped.status == 0 && stopped.stdout == "Breathing timer stopped.\n", "\(stopped)")
        let again = harness.ctl("timer", "stop")
        #expect(again.status != 0 && again.stderr.contains("no breathing timer is running"), "\(again)")
    }
}
