// The words of the silent breathing timer's screens and voice: the patterns in plain words, the lengths,
// what PLAY and BACK do. See docs/routine.md and docs/design.md.

/// Texts of the breathing timer's set-up and running screens.
enum TimerText {
    /// The lengths a press on the set-up's Length row steps through.
    static var presets: [Int] { BreathingTimer.presetMinutes }

    /// The pattern to use for a stored name (the setting is validated; the default if it is not known).
    static func patternName(_ name: String) -> String {
        BreathingTimer.patterns.contains { $0.name == name } ? name : "4-6"
    }

    /// The chosen length, 1 to 60 minutes.
    static func minutes(_ value: Int) -> Int { min(60, max(1, value)) }

    /// "4-7-8", "Box 4-4-4-4".
    static func displayName(_ pattern: String) -> String {
        pattern == "box" ? "Box 4-4-4-4" : pattern
    }

    /// The running screen's title: "4-7-8 breathing", "Box breathing".
    static func title(_ pattern: String) -> String {
        pattern == "box" ? "Box breathing" : "\(pattern) breathing"
    }

    /// The rhythm in words: "In 4 · hold 7 · out 8".
    static func rhythm(_ pattern: String) -> String {
        steps(pattern).map { "\($0.word) \($0.seconds)" }.joined(separator: " \u{00B7} ")
            .replacingFirstLetterWithCapital()
    }

    /// The rhythm for the voice: "in for 4, hold for 7, out for 8" (the voice would read "4-7-8" as a sum).
    static func spokenRhythm(_ pattern: String) -> String {
        steps(pattern).map { "\($0.word) for \($0.seconds)" }.joined(separator: ", ")
    }

    private static func steps(_ pattern: String) -> [(word: String, seconds: Int)] {
        guard let found = BreathingTimer.patterns.first(where: { $0.name == pattern })?.pattern else { return [] }
        var steps: [(String, Int)] = [("in", Int(found.inhale.seconds))]
        if found.holdIn > .zero { steps.append(("hold", Int(found.holdIn.seconds))) }
        steps.append(("out", Int(found.exhale.seconds)))
        if found.holdOut > .zero { steps.append(("hold", Int(found.holdOut.seconds))) }
        return steps
    }

    /// What each pattern is good for, in a line.
    static func purpose(_ pattern: String) -> String {
        switch pattern {
        case "4-4": return "Even and simple: a good place to start."
        case "4-7-8": return "Long and slow, for the edge of sleep."
        case "box": return "Square and steady, to settle a busy mind."
        default: return "The longer breath out helps you unwind."
        }
    }

    /// "In 4 · out 6. The longer breath out helps you unwind."
    static func explanation(_ pattern: String) -> String { "\(rhythm(pattern)). \(purpose(pattern))" }

    /// The next pattern a press chooses, in the order offered.
    static func nextPattern(after pattern: String) -> String {
        let names = BreathingTimer.patterns.map(\.name)
        guard let index = names.firstIndex(of: pattern) else { return names[0] }
        return names[(index + 1) % names.count]
    }

    /// The next preset length a press chooses: the next one up, round to the shortest.
    static func nextPreset(after minutes: Int) -> Int {
        presets.first { $0 > minutes } ?? presets[0]
    }

    /// The library card's second line and the strip: "Silent · 5 min · 4-6".
    static func summary(_ settings: Settings) -> String {
        "Silent \u{00B7} \(InterfaceText.minutesText(minutes(settings.timerMinutes))) \u{00B7} \(displayName(patternName(settings.timerPattern)))"
    }

    /// "5 minutes, in for 4, out for 6".
    static func spokenChoice(_ settings: Settings) -> String {
        "\(InterfaceText.spokenMinutes(minutes(settings.timerMinutes))), \(spokenRhythm(patternName(settings.timerPattern)))"
    }

    /// What the knob's press says on the running screen.
    static func spokenLeft(_ timer: BreathingTimer, now: MonotonicInstant) -> String {
        "\(InterfaceText.spokenPosition(Double(secondsLeft(timer, now: now)))) left. PLAY or BACK stops the timer."
    }

    /// Whole seconds left, rounded up: 5:00 at the start, 0:01 in the last second.
    static func secondsLeft(_ timer: BreathingTimer, now: MonotonicInstant) -> Int {
        let left = timer.remaining(at: now)
        let seconds = left.components.seconds + (left.components.attoseconds > 0 ? 1 : 0)
        return Int(max(0, seconds))
    }

    static let lengthHint = "Press for 3, 5 or 10 minutes \u{00B7} hold the knob for any length"
    static let lengthEditingHint = "Turn for 1 to 60 minutes \u{00B7} press to keep \u{00B7} BACK to cancel"
    static let patternHint = "Press for the next pattern"
    static let intro = "Breathe with the circle, in silence. A soft chime or glow marks the start and the end."
    static let playHint = "PLAY to stop"
    static let backHint = "BACK stops it too"
}

extension String {
    fileprivate func replacingFirstLetterWithCapital() -> String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
