import Testing
import StillroomCore

/// `Transcript.cue(at:)`: start inclusive, end exclusive, nothing in gaps, latest start wins in overlaps.
@Suite struct TranscriptLookupTests {
    static let transcript = Transcript(cues: [
        TranscriptCue(start: .seconds(1), end: .seconds(3), text: "a"),
        TranscriptCue(start: .seconds(3), end: .seconds(5), text: "b"),
        TranscriptCue(start: .seconds(7), end: .seconds(8), text: "c"),
    ])

    @Test(arguments: [
        (0, nil), (999, nil), (1000, "a"), (2999, "a"), (3000, "b"), (4999, "b"), (5000, nil), (6999, nil),
        (7000, "c"), (7999, "c"), (8000, nil), (1_000_000, nil),
    ] as [(Int64, String?)])
    func lookupAtBoundaries(_ milliseconds: Int64, _ expected: String?) {
        #expect(Self.transcript.cue(at: .milliseconds(milliseconds))?.text == expected)
    }

    @Test func lookupBeforeZeroFindsNothing() {
        #expect(Self.transcript.cue(at: .milliseconds(-1)) == nil)
    }

    @Test func emptyTranscriptFindsNothing() {
        #expect(Transcript(cues: []).cue(at: .zero) == nil)
    }

    @Test func singleCueTranscript() {
        let single = Transcript(cues: [TranscriptCue(start: .zero, end: .seconds(1), text: "only")])
        #expect(single.cueIndex(at: .zero) == 0)
        #expect(single.cueIndex(at: .seconds(1)) == nil)
    }

    @Test func overlapsPreferTheLatestStartThenFallBackToTheLongCue() {
        let overlapping = Transcript(cues: [
            TranscriptCue(start: .seconds(0), end: .seconds(10), text: "long"),
            TranscriptCue(start: .seconds(2), end: .seconds(3), text: "short"),
            TranscriptCue(start: .seconds(4), end: .seconds(5), text: "another"),
            TranscriptCue(start: .seconds(12), end: .seconds(13), text: "after"),
        ])
        #expect(overlapping.cue(at: .seconds(1))?.text == "long")
        #expect(overlapping.cue(at: .milliseconds(2500))?.text == "short")
        #expect(overlapping.cue(at: .milliseconds(3500))?.text == "long")
        #expect(overlapping.cue(at: .milliseconds(4500))?.text == "another")
        #expect(overlapping.cue(at: .seconds(6))?.text == "long")
        #expect(overlapping.cue(at: .seconds(11)) == nil)
        #expect(overlapping.cue(at: .seconds(12))?.text == "after")
    }

    @Test func lookupAgreesWithALinearScanOnAParsedTranscript() throws {
        var text = "WEBVTT\n"
        for index in 0..<200 {
            let start = index * 1500
            let end = start + (index % 3 == 0 ? 2500 : 1000) // every third cue overlaps the next
            text += "\n\(timestamp(start)) --> \(timestamp(end))\ncue \(index)\n"
        }
        let transcript = try WebVTTParser.parse(Array(text.utf8), fileName: "t.vtt")
        for millisecond in stride(from: Int64(-10), through: 301_000, by: 250) {
            let time = Duration.milliseconds(millisecond)
            let expected = transcript.cues.indices.last { transcript.cues[$0].start <= time && time < transcript.cues[$0].end }
            #expect(transcript.cueIndex(at: time) == expected, "at \(millisecond) ms")
        }
    }

    private func timestamp(_ milliseconds: Int) -> String {
        let minutes = milliseconds / 60_000
        let seconds = milliseconds / 1000 % 60
        let fraction = milliseconds % 1000
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(fraction, 3))"
    }
}
