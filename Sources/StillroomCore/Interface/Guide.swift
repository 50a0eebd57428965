// The spoken guide (hold BACK alone for three seconds): what each control does on the screen showing,
// and how to get help. The words live here and nowhere else in the code; docs/accessibility.md shows the
// same words, and a test checks they are the same.

/// The guide to the box, one page per screen.
public enum Guide {
    /// The screens the guide knows, as a person meets them.
    public enum Page: String, Equatable, Hashable, Sendable, CaseIterable {
        case library, session, player, transcript, history, settings, downloads, question, notice, clock
        case timerSetup, breathingTimer, resumeOffer, update
    }

    /// The page for what shows now.
    public static func page(_ interface: Interface, _ model: InterfaceModel) -> Page {
        if model.systemUpdate != nil { return .update }
        if interface.showsResumeOffer(model) { return .resumeOffer }
        switch interface.screen {
        case .library: return .library
        case .detail: return .session
        case .player: return .player
        case .transcript: return .transcript
        case .history: return .history
        case .settings: return .settings
        case .downloads: return .downloads
        case .confirm: return .question
        case .notice: return .notice
        case .idle: return .clock
        case .timerSetup: return .timerSetup
        case .breathingTimer: return .breathingTimer
        }
    }

    /// "the player".
    public static func name(_ page: Page) -> String {
        switch page {
        case .library: return "the library"
        case .session: return "a session's page"
        case .player: return "the player"
        case .transcript: return "the transcript"
        case .history: return "practice history"
        case .settings: return "settings"
        case .downloads: return "downloads"
        case .question: return "a question"
        case .notice: return "a notice"
        case .clock: return "the clock"
        case .timerSetup: return "the breathing timer's set-up"
        case .breathingTimer: return "the running breathing timer"
        case .resumeOffer: return "the offer to resume"
        case .update: return "an update"
        }
    }

    /// What each control does on `page`.
    public static func controls(_ page: Page) -> String {
        switch page {
        case .library:
            return "PLAY plays the session under the knob, or pauses the one playing. Turn the knob to move through "
                + "the notices, the filter, the sessions, the breathing timer, history and settings. Press the knob to "
                + "open what it is on. Hold the knob on a session to add it to favourites or take it away."
        case .session:
            return "PLAY plays this session, or pauses it. Turn the knob to move through its buttons, its description "
                + "and its licence. Press the knob to do the button it is on. Hold the knob to add the session to "
                + "favourites or take it away. BACK goes back."
        case .player:
            return "PLAY pauses or plays. Turn the knob to seek, 15 seconds a click, further when you turn faster: each "
                + "click ticks, the place is said, and the seek happens when the knob rests. BACK during a seek cancels "
                + "it. Press the knob for the transcript. Hold the knob to add this session to favourites. BACK goes back."
        case .transcript:
            return "PLAY pauses or plays. Turn the knob to turn the pages; turn back to where the recording is to "
                + "follow it again. Hold the knob to hear it read aloud from the page in view; any control stops the "
                + "reading. Press the knob, or BACK, for the player."
        case .history:
            return "Turn the knob to hear the month, each week, the totals and each recent session. Hold the knob on "
                + "a session to delete it; the box asks first. PLAY plays or pauses. BACK goes back."
        case .settings:
            return "Turn the knob to move through the settings; press it to change the one it is on. For a volume or "
                + "the reminder: press, turn to choose, press to keep, or BACK to cancel. PLAY plays or pauses. "
                + "BACK goes back."
        case .downloads:
            return "Turn the knob to move through the sessions that can be downloaded; press it to open one, to "
                + "download it or remove it. PLAY plays the one under the knob. BACK goes back."
        case .question:
            return "A question before something that cannot be undone. Turn the knob to choose an answer; press it "
                + "to give it. BACK keeps things as they are."
        case .notice:
            return "Turn the knob to hear the notice a sentence at a time, and what to do. Press the knob on Dismiss "
                + "to put it away. BACK goes back and keeps it."
        case .clock:
            return "PLAY does what the clock says it does. Any other touch shows the library."
        case .timerSetup:
            return "Turn the knob to Start, the length or the pattern; press it to start, or to change the one it is "
                + "on. Hold the knob on the length for any length from 1 to 60 minutes. PLAY starts the timer. "
                + "BACK goes back."
        case .breathingTimer:
            return "The timer runs in silence. Press the knob to hear the time left. PLAY or BACK stops it."
        case .resumeOffer:
            return "The box offers to go on where you stopped. PLAY, or a press of the knob, resumes. BACK says not "
                + "now. Turn the knob to hear the offer again."
        case .update:
            return "An update is installing. The controls start nothing until the box has restarted, which it does by "
                + "itself; any touch says so."
        }
    }

    /// How to get help, the same on every page.
    public static let help = "Hold BACK, then let go, for the library from anywhere. In the dark, the first touch "
        + "only lights the screen, except PLAY, which acts at once. Hold BACK alone for 3 seconds for this guide. "
        + "Hold BACK and the knob together for 2 seconds to turn spoken labels on or off. Hold BACK and PLAY "
        + "together for 2 seconds for the key describer: each control then says what it does instead of doing it, "
        + "until you hold BACK and PLAY again or leave it a minute. Short or full labels are in Settings."

    /// The whole guide for `page`, as it is spoken.
    public static func text(_ page: Page) -> String {
        "Guide to \(name(page)). \(controls(page)) \(help)"
    }

    /// The guide for `page` a sentence at a time, as the box reads it: a minute of speech synthesised in
    /// one piece kept the loop busy for a second on a fast machine (lifesim's longest turn, `press guide`),
    /// several on a Pi Zero, with the recording starved meanwhile; the longest sentence is about a fifth of it.
    /// Joined with spaces, the sentences are `text(page)`.
    public static func sentences(_ page: Page) -> [String] {
        var sentences: [String] = []
        var current = ""
        let words = text(page).split(separator: " ", omittingEmptySubsequences: false)
        for (index, word) in words.enumerated() {
            current += current.isEmpty ? String(word) : " " + word
            let next = index + 1 < words.count ? words[index + 1] : nil
            // A sentence ends at a full stop before a word that starts with a capital (or at the end).
            if word.hasSuffix("."), next.map({ $0.first?.isUppercase ?? false }) ?? true {
                sentences.append(current)
                current = ""
            }
        }
        if !current.isEmpty { sentences.append(current) }
        return sentences
    }
}
