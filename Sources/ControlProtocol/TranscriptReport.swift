import StillroomCore

/// A transcript as the protocol carries it: one builder, used by the daemon and by the CLI reading the
/// content folder itself when the daemon is down, so both answers have the same shape.
///
///     {"session": "steady-breath", "title": "Steady breath", "source": "bundled",
///      "cues": [{"start": 0, "end": 4.5, "text": "Settle in."}, …]}
///
/// `text` is the cue's plain text (markup removed, as on the screen); `source` is "bundled" or "downloaded".
public enum TranscriptReport {
    public static func json(session: String, title: String, source: String, transcript: Transcript) -> JSONValue {
        .object([
            "session": .string(session), "title": .string(title), "source": .string(source),
            "cues": .array(transcript.cues.map { cue in
                .object(["start": .number(cue.start.seconds), "end": .number(cue.end.seconds), "text": .string(cue.plainText)])
            }),
        ])
    }
}
