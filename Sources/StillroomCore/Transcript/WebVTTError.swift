/// Why a WebVTT file was refused, and on which line, as `transcript.vtt:7: bad timestamp "00:1.000" …`.
public struct WebVTTError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Line 1 is not `WEBVTT` (optionally followed by a space or tab and any text).
        case missingHeader
        /// A cue timing line inside the header block: the blank line after the header is missing.
        case missingBlankLineAfterHeader
        /// A block that is neither a cue nor NOTE/STYLE/REGION: no `-->` on its first or second line.
        case missingTimingLine(found: String)
        /// Not `mm:ss.ttt` or `hh:mm:ss.ttt` (an empty string when the timestamp is absent).
        case badTimestamp(String)
        case endNotAfterStart(start: String, end: String)
        /// The cue starts earlier than the cue before it.
        case cueOutOfOrder(start: String, previousStart: String)
        /// A timing line with no text after it.
        case emptyCueText
        /// `-->` in a cue's text, where it would be read as a timing line.
        case arrowInCueText
        /// `-->` inside a NOTE, STYLE or REGION block, which the format forbids.
        case arrowInBlock(keyword: String)
        /// The file is larger than `WebVTTParser.maximumBytes`.
        case fileTooLarge(bytes: Int)
        /// More cues than `WebVTTParser.maximumCues`.
        case tooManyCues
        /// A cue's text is longer than `WebVTTParser.maximumCueCharacters`.
        case cueTooLong(characters: Int)
    }

    /// The name given to the parser.
    public var fileName: String
    /// 1-based; LF, CR and CRLF each end one line.
    public var line: Int
    public var kind: Kind

    public init(fileName: String, line: Int, kind: Kind) {
        self.fileName = fileName
        self.line = line
        self.kind = kind
    }

    public var description: String { "\(fileName):\(line): \(message)" }

    /// The message without file and line.
    public var message: String {
        switch kind {
        case .missingHeader:
            return "missing \"WEBVTT\" header on the first line"
        case .missingBlankLineAfterHeader:
            return "expected a blank line between the header and the first cue"
        case .missingTimingLine(let found):
            return "expected a cue timing line (\"00:01.000 --> 00:04.000\"), found \(quotedForMessage(found))"
        case .badTimestamp(let text):
            let shown = text.isEmpty ? "missing timestamp" : "bad timestamp \(quotedForMessage(text))"
            return "\(shown) (expected mm:ss.ttt or hh:mm:ss.ttt)"
        case .endNotAfterStart(let start, let end):
            return "cue ends at \(end), which is not after its start \(start)"
        case .cueOutOfOrder(let start, let previousStart):
            return "cue starts at \(start), before the previous cue's start \(previousStart); cues must be in order"
        case .emptyCueText:
            return "cue has no text"
        case .arrowInCueText:
            return "\"-->\" is not allowed in cue text"
        case .arrowInBlock(let keyword):
            return "\"-->\" is not allowed in a \(keyword) block"
        case .fileTooLarge(let bytes):
            return "the file is \(bytes) bytes; a transcript may be at most \(WebVTTParser.maximumBytes) (512 KiB)"
        case .tooManyCues:
            return "more than \(WebVTTParser.maximumCues) cues; a transcript may have at most \(WebVTTParser.maximumCues)"
        case .cueTooLong(let characters):
            return "the cue's text is \(characters) characters long; a cue may have at most \(WebVTTParser.maximumCueCharacters) "
                + "(split it into shorter cues)"
        }
    }
}
