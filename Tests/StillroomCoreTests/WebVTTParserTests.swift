import FoundationEssentials
import Testing
import StillroomCore

@Suite struct WebVTTParserTests {
    private func parse(_ text: String) throws(WebVTTError) -> Transcript {
        try WebVTTParser.parse(Array(text.utf8), fileName: "transcript.vtt")
    }

    static let realistic = """
    WEBVTT - Steady breath, transcript
    Kind: captions
    Language: en

    STYLE
    ::cue { color: lightyellow }

    NOTE Written for the Stillroom bundle.
    Times follow the final mix.

    REGION
    id:fred width:40%

    intro
    00:00.000 --> 00:04.500
    Settle in, and let your shoulders drop.

    00:04.500 --> 00:09.250 align:start line:90%
    Breathe in through the nose…
    <i>slowly</i> &amp; gently.

    NOTE between cues

    3
    00:09.250 --> 00:15.000
    <v Guide>And out.</v>

    """

    @Test func readsIdentifiersTimesSettingsAndMultiLineText() throws {
        let transcript = try parse(Self.realistic)
        #expect(transcript.cues == [
            TranscriptCue(identifier: "intro", start: .zero, end: .milliseconds(4500), text: "Settle in, and let your shoulders drop."),
            TranscriptCue(start: .milliseconds(4500), end: .milliseconds(9250), settings: "align:start line:90%",
                          text: "Breathe in through the nose…\n<i>slowly</i> &amp; gently."),
            TranscriptCue(identifier: "3", start: .milliseconds(9250), end: .seconds(15), text: "<v Guide>And out.</v>"),
        ])
    }

    @Test func plainTextDropsTagsAndDecodesReferences() throws {
        let transcript = try parse(Self.realistic)
        #expect(transcript.cues[1].plainText == "Breathe in through the nose…\nslowly & gently.")
        #expect(transcript.cues[2].plainText == "And out.")
        #expect(TranscriptCue(start: .zero, end: .seconds(1), text: "a &lt;b&gt; &unknown; & c&nbsp;d <00:00.500>e").plainText
                == "a <b> &unknown; & c\u{A0}d e")
    }

    @Test func crlfAndLoneCRLineEndingsGiveTheSameCues() throws {
        let lf = try parse(Self.realistic)
        #expect(try parse(Self.realistic.replacing("\n", with: "\r\n")) == lf)
        #expect(try parse(Self.realistic.replacing("\n", with: "\r")) == lf)
    }

    @Test func byteOrderMarkIsAllowed() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n".utf8)
        #expect(try WebVTTParser.parse(bytes, fileName: "t.vtt").cues.count == 1)
        #expect(try WebVTTParser.parse(Data(bytes), fileName: "t.vtt").cues.count == 1)
    }

    @Test func hoursAndLongHoursAreRead() throws {
        let transcript = try parse("WEBVTT\n\n01:02:03.004 --> 01:02:05.000\nLate\n\n100:00:00.000 --> 100:00:01.000\nLater\n")
        #expect(transcript.cues.map(\.start) == [.milliseconds(3_723_004), .seconds(360_000)])
    }

    @Test func headerMayCarryTextAfterASpaceOrTab() throws {
        #expect(try parse("WEBVTT\tStillroom\n").cues.isEmpty)
        #expect(try parse("WEBVTT").cues.isEmpty)
    }

    @Test func arrowWithoutSurroundingSpacesIsAccepted() throws {
        let transcript = try parse("WEBVTT\n\n00:01.000-->00:02.000\nTight\n")
        #expect(transcript.cues.first?.end == .seconds(2))
    }

    @Test func manyBlankLinesSeparateBlocks() throws {
        #expect(try parse("WEBVTT\n\n\n\n00:01.000 --> 00:02.000\nA\n\n\n\n00:02.000 --> 00:03.000\nB").cues.map(\.text) == ["A", "B"])
    }

    @Test func overlappingCuesAndEqualStartsAreAllowed() throws {
        let transcript = try parse("WEBVTT\n\n00:01.000 --> 00:05.000\nLong\n\n00:01.000 --> 00:02.000\nShort\n\n00:03.000 --> 00:04.000\nInside\n")
        #expect(transcript.cues.count == 3)
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let bytes = Array("WEBVTT\n\n00:01.000 --> 00:02.000\nA".utf8) + [0xFF] + Array("B\n".utf8)
        #expect(try WebVTTParser.parse(bytes, fileName: "t.vtt").cues.first?.text == "A\u{FFFD}B")
    }

    struct InvalidCase: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var line: Int
        var kind: WebVTTError.Kind
        var testDescription: String { name }
    }

    static let invalidCases: [InvalidCase] = [
        InvalidCase(name: "empty file", text: "", line: 1, kind: .missingHeader),
        InvalidCase(name: "no header", text: "00:01.000 --> 00:02.000\nHi\n", line: 1, kind: .missingHeader),
        InvalidCase(name: "lower-case header", text: "webvtt\n", line: 1, kind: .missingHeader),
        InvalidCase(name: "header glued to text", text: "WEBVTTX\n", line: 1, kind: .missingHeader),
        InvalidCase(name: "header after a blank line", text: "\nWEBVTT\n", line: 1, kind: .missingHeader),
        InvalidCase(name: "cue inside the header block", text: "WEBVTT\n00:01.000 --> 00:02.000\nHi\n", line: 2, kind: .missingBlankLineAfterHeader),
        InvalidCase(name: "minutes with one digit", text: "WEBVTT\n\n00:01.000 --> 00:02.000\nA\n\n0:03.000 --> 00:04.000\nB\n", line: 6,
                    kind: .badTimestamp("0:03.000")),
        InvalidCase(name: "two fraction digits", text: "WEBVTT\n\n00:01.00 --> 00:02.000\nA\n", line: 3, kind: .badTimestamp("00:01.00")),
        InvalidCase(name: "seconds over 59", text: "WEBVTT\n\n00:60.000 --> 01:02.000\nA\n", line: 3, kind: .badTimestamp("00:60.000")),
        InvalidCase(name: "minutes over 59 without hours", text: "WEBVTT\n\n75:00.000 --> 75:01.000\nA\n", line: 3, kind: .badTimestamp("75:00.000")),
        InvalidCase(name: "one-digit hours", text: "WEBVTT\n\n1:00:00.000 --> 01:00:01.000\nA\n", line: 3, kind: .badTimestamp("1:00:00.000")),
        InvalidCase(name: "comma instead of dot", text: "WEBVTT\n\n00:01,000 --> 00:02.000\nA\n", line: 3, kind: .badTimestamp("00:01,000")),
        InvalidCase(name: "bad end timestamp", text: "WEBVTT\n\n00:01.000 --> 00:02\nA\n", line: 3, kind: .badTimestamp("00:02")),
        InvalidCase(name: "missing end timestamp", text: "WEBVTT\n\n00:01.000 -->\nA\n", line: 3, kind: .badTimestamp("")),
        InvalidCase(name: "end before start", text: "WEBVTT\n\n00:05.000 --> 00:04.000\nA\n", line: 3,
                    kind: .endNotAfterStart(start: "00:05.000", end: "00:04.000")),
        InvalidCase(name: "end equal to start", text: "WEBVTT\n\n00:05.000 --> 00:05.000\nA\n", line: 3,
                    kind: .endNotAfterStart(start: "00:05.000", end: "00:05.000")),
        InvalidCase(name: "cues out of order", text: "WEBVTT\n\n00:05.000 --> 00:06.000\nA\n\nlate\n00:04.000 --> 00:07.000\nB\n", line: 7,
                    kind: .cueOutOfOrder(start: "00:04.000", previousStart: "00:05.000")),
        InvalidCase(name: "empty cue text", text: "WEBVTT\n\n00:01.000 --> 00:02.000\n\n00:03.000 --> 00:04.000\nB\n", line: 3, kind: .emptyCueText),
        InvalidCase(name: "empty cue text at the end", text: "WEBVTT\n\nid\n00:01.000 --> 00:02.000", line: 4, kind: .emptyCueText),
        InvalidCase(name: "arrow in cue text", text: "WEBVTT\n\n00:01.000 --> 00:02.000\nA\nthis --> that\n", line: 5, kind: .arrowInCueText),
        InvalidCase(name: "text without timing", text: "WEBVTT\n\nJust some words\nwith no times\n", line: 3,
                    kind: .missingTimingLine(found: "Just some words")),
        InvalidCase(name: "identifier alone", text: "WEBVTT\n\n00:01.000 --> 00:02.000\nA\n\nlonely\n", line: 6, kind: .missingTimingLine(found: "lonely")),
        InvalidCase(name: "arrow in a note", text: "WEBVTT\n\nNOTE\nsee 00:01.000 --> 00:02.000\n", line: 4, kind: .arrowInBlock(keyword: "NOTE")),
        InvalidCase(name: "CRLF counts as one line ending", text: "WEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\nA\r\n\r\n00:0x.000 --> 00:03.000\r\nB\r\n",
                    line: 6, kind: .badTimestamp("00:0x.000")),
        // Found by fuzz-webvtt: a minutes field of 24 digits overflowed Int64 before its length was checked.
        InvalidCase(name: "absurdly long minutes field", text: "WEBVTT\n\n01:777777777777777777777700:01.500 --> 01:00:02.000\nA\n", line: 3,
                    kind: .badTimestamp("01:777777777777777777777700:01.500")),
        InvalidCase(name: "lone CR ends a line", text: "WEBVTT\r\r00:01.000 --> 00:00.500\rA\r", line: 3,
                    kind: .endNotAfterStart(start: "00:01.000", end: "00:00.500")),
    ]

    @Test(arguments: invalidCases)
    func invalidFileIsRefusedAtTheRightLine(_ example: InvalidCase) {
        #expect(throws: WebVTTError(fileName: "transcript.vtt", line: example.line, kind: example.kind)) {
            try parse(example.text)
        }
    }

    @Test func errorsReadAsFileLineAndMessage() {
        let error = WebVTTError(fileName: "sessions/a/transcript.vtt", line: 7, kind: .badTimestamp("00:1.000"))
        #expect(error.description == #"sessions/a/transcript.vtt:7: bad timestamp "00:1.000" (expected mm:ss.ttt or hh:mm:ss.ttt)"#)
        #expect(WebVTTError(fileName: "t.vtt", line: 1, kind: .missingHeader).description == #"t.vtt:1: missing "WEBVTT" header on the first line"#)
        #expect(WebVTTError(fileName: "t.vtt", line: 9, kind: .cueOutOfOrder(start: "00:04.000", previousStart: "00:05.000")).description
                == "t.vtt:9: cue starts at 00:04.000, before the previous cue's start 00:05.000; cues must be in order")
    }
}
