import StillroomCore

// The WebVTT parser: any bytes parse or give a line-numbered error, never a crash; parsed cues are
// ordered with end >= start, so the player's binary search stays valid.
func check(_ bytes: [UInt8]) {
    guard let transcript = try? WebVTTParser.parse(bytes, fileName: "fuzz.vtt") else { return }
    var previous: Duration = .zero
    for cue in transcript.cues {
        precondition(cue.end >= cue.start && cue.start >= previous)
        previous = cue.start
        _ = transcript.cue(at: cue.start)
    }
}
