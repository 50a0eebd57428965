/// One timed piece of a transcript: what is said between `start` and `end`.
public struct TranscriptCue: Sendable, Hashable {
    /// The optional line before the timing line ("intro", "3").
    public var identifier: String?
    /// From the start of the recording.
    public var start: Duration
    /// Always after `start`; the cue covers `start ..< end`.
    public var end: Duration
    /// Whatever followed the end time ("align:start line:0"), unparsed: the player's layout is its own.
    public var settings: String
    /// The cue's lines joined with "\n", markup (`<v Guide>`, `&amp;`) kept; see `plainText`.
    public var text: String

    public init(identifier: String? = nil, start: Duration, end: Duration, settings: String = "", text: String) {
        self.identifier = identifier
        self.start = start
        self.end = end
        self.settings = settings
        self.text = text
    }
}
