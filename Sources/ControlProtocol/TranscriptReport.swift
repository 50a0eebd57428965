import StillroomCore

/// A transcript as the protocol carries it: built by the daemon and by the CLI reading the content folder
/// itself when the daemon is down, so both answers have the same shape.
///
///     {"session": "steady-breath", "title": "Steady breath", "source": "bundled",
///      "cues": [{"start": 0, "end": 4.5, "text": "Settle in."}, …]}
///
/// `text` is the cue's plain text (markup removed, as on the screen); `source` is "bundled" or "downloaded".
public struct TranscriptReport: Equatable, Sendable {
    public enum Source: String, Equatable, Sendable {
        case bundled
        case downloaded
    }

    public struct Cue: Equatable, Sendable {
        /// Seconds from the start.
        public var start: Double
        public var end: Double
        public var text: String
    }

    public var session: String
    public var title: String
    public var source: Source
    public var cues: [Cue]

    public init(session: String, title: String, source: Source, transcript: Transcript) {
        self.session = session
        self.title = title
        self.source = source
        cues = transcript.cues.map { Cue(start: $0.start.seconds, end: $0.end.seconds, text: $0.plainText) }
    }

    public var json: JSONValue {
        .object([
            "session": .string(session), "title": .string(title), "source": .string(source.rawValue),
            "cues": .array(cues.map { .object(["start": .number($0.start), "end": .number($0.end), "text": .string($0.text)]) }),
        ])
    }

    public init(json: JSONValue) {
        session = json["session"]?.stringValue ?? ""
        title = json["title"]?.stringValue ?? ""
        source = json["source"]?.stringValue.flatMap(Source.init) ?? .bundled
        cues = (json["cues"]?.arrayValue ?? []).map { cue in
            Cue(start: cue["start"]?.doubleValue ?? 0, end: cue["end"]?.doubleValue ?? 0, text: cue["text"]?.stringValue ?? "")
        }
    }
}
