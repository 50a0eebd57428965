import DrivenDaemonSupport
import StillroomCore
import TestSupport
import Testing

/// The CLI reads every number one way, decimal (docs/control.md, "Numbers"): `seek 0x10` went to 0:16,
/// `seek +0x1p3` 8 s on and `seek 1.5:00` to 1:30, while `volume 0x10` was refused. The real CLI
/// against the daemon in this process.
@Suite struct NumberGrammarTests {
    @Test func hexExponentsSignsAndFractionsWhereWholeNumbersBelongAreRefused() throws {
        let harness = DrivenDaemon()
        try harness.start()
        defer { harness.stop() }
        #expect(harness.ctl("play", "long").status == 0)
        #expect(harness.ctl("pause").status == 0)
        let refused: [[String]] = [
            ["seek", "0x10"], ["seek", "+0x1p3"], ["seek", "1.5:00"], ["seek", "+1e1"], ["seek", "-inf"], ["seek", "1:0x3"],
            ["volume", "0x10"], ["volume", "+10"], ["volume", "1e1"],
            ["timer", "start", "--minutes", "0x5"], ["dismiss", "--notice", "+1"],
            ["settings", "set", "headphones-cap", "0x10"], ["settings", "set", "volume", "+40"],
            ["reminder", "set", "+1:30"], ["reminder", "set", "-0:30"],
        ]
        for words in refused {
            let asked = harness.ctl(words)
            #expect(asked.status == 2, "\(words.joined(separator: " ")): \(asked.status) \(asked.stdout)\(asked.stderr)")
        }
        let position = { statusJSON(harness.ctl("status", "--json").stdout)["position"]?.doubleValue ?? -1 }
        #expect(harness.ctl("seek", "0:04.5").status == 0)
        #expect(abs(position() - 4.5) < 0.001)
        #expect(harness.ctl("seek", "+2.25").status == 0)
        #expect(abs(position() - 6.75) < 0.001)
        #expect(harness.ctl("seek", "10").status == 0)
        #expect(abs(position() - 10) < 0.001)
        #expect(harness.ctl("volume", "040").status == 0)
    }
}
