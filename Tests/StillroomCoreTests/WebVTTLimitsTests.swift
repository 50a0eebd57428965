import StillroomCore
import Testing

/// The parser's limits: a transcript the box reads on its one thread and shapes for its screen.
@Suite struct WebVTTLimitsTests {
    private func parse(_ text: String) throws(WebVTTError) -> Transcript {
        try WebVTTParser.parse(Array(text.utf8), fileName: "transcript.vtt")
    }

    @Test func aCueAtTheLimitIsReadAndOneCharacterMoreIsRefusedAtItsText() throws {
        let limit = WebVTTParser.maximumCueCharacters
        let atLimit = String(repeating: "é", count: limit) // two bytes a character: counted in characters
        #expect(try parse("WEBVTT\n\n00:00.000 --> 00:05.000\n\(atLimit)\n").cues.first?.text.count == limit)
        let over = String(repeating: "a", count: limit - 4) + "\nbcde" // two lines: the newline counts too
        #expect(throws: WebVTTError(fileName: "transcript.vtt", line: 5, kind: .cueTooLong(characters: limit + 1))) {
            try parse("WEBVTT\n\nintro\n00:00.000 --> 00:05.000\n\(over)\n")
        }
    }

    @Test func aMegabyteFileIsRefusedBeforeItIsRead() {
        let huge = "WEBVTT\n\n00:00.000 --> 00:05.000\n" + String(repeating: "calm ", count: 210_000) + "\n"
        #expect(throws: WebVTTError(fileName: "transcript.vtt", line: 1, kind: .fileTooLarge(bytes: huge.utf8.count))) {
            try parse(huge)
        }
    }

    @Test func oneCueMoreThanTheLimitIsRefusedAtItsTimingLine() throws {
        let cues = (0...WebVTTParser.maximumCues).map { index in
            "\(WebVTTText.timestamp(index)) --> \(WebVTTText.timestamp(index + 1))\nBreathe.\n"
        }
        let atLimit = "WEBVTT\n\n" + cues.dropLast().joined(separator: "\n")
        #expect(try parse(atLimit).cues.count == WebVTTParser.maximumCues)
        // Line of the extra cue's timing: header (1), blank (2), then three lines a cue.
        #expect(throws: WebVTTError(fileName: "transcript.vtt", line: 3 + 3 * WebVTTParser.maximumCues, kind: .tooManyCues)) {
            try parse("WEBVTT\n\n" + cues.joined(separator: "\n"))
        }
    }

    @Test func messagesSayTheLimit() {
        #expect(WebVTTError(fileName: "t.vtt", line: 4, kind: .cueTooLong(characters: 1318)).description
                == "t.vtt:4: the cue's text is 1318 characters long; a cue may have at most 1000 (split it into shorter cues)")
        #expect(WebVTTError(fileName: "t.vtt", line: 1, kind: .fileTooLarge(bytes: 1_048_576)).description
                == "t.vtt:1: the file is 1048576 bytes; a transcript may be at most 524288 (512 KiB)")
        #expect(WebVTTError(fileName: "t.vtt", line: 15_003, kind: .tooManyCues).description
                == "t.vtt:15003: more than 5000 cues; a transcript may have at most 5000")
    }
}

/// Timestamps for generated transcripts: `index` seconds as `hh:mm:ss.000`.
enum WebVTTText {
    static func timestamp(_ seconds: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)).000"
    }
}
