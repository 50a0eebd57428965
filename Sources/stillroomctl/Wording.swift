import StillroomCore

/// Words for numbers and reasons, so what stillroomctl prints reads as English and never as a Swift value.
enum Wording {
    /// "1 day", "3 days" (the core's, which the daemon's words use too).
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        NumberText.count(number, singular, plural)
    }

    /// Why the player paused, as a sentence ("Paused because the headphones were unplugged").
    /// `reason` is the protocol's word (PauseReason's raw value); an unknown one is shown as given.
    static func pause(_ reason: PauseReason) -> String {
        switch reason {
        case .user: "Paused on request (a button or stillroomctl pause)"
        case .headphonesRemoved: "Paused because the headphones were unplugged"
        case .outputLost: "Paused because the audio output was lost"
        case .interruption: "Paused for an interruption"
        case .shutdown: "Paused because the box was shutting down"
        case .damagedRecording: "Stopped: the recording is damaged here (seek past it, or choose another session)"
        }
    }
}
