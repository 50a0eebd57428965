// The words on the screens, in one place: short, plain, kind, and the same words the voice says.

/// Texts the screens and spoken labels share.
public enum InterfaceText {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    /// "Tuesday 12 May".
    public static func dateText(_ date: CivilDate) -> String {
        "\(weekdays[date.weekday.rawValue]) \(date.day) \(months[date.month - 1])"
    }

    /// "Tue 12 May".
    static func shortDate(_ date: CivilDate) -> String {
        "\(weekdays[date.weekday.rawValue].prefix(3)) \(date.day) \(months[date.month - 1].prefix(3))"
    }

    /// "May 2026".
    static func monthTitle(_ month: CivilMonth) -> String { "\(months[month.month - 1]) \(month.year)" }

    /// "5 min", "1 h 5 min", "under a minute" for a length or an amount of listening.
    public static func minutes(_ seconds: Double) -> String {
        let whole = Int((max(0, seconds) / 60).rounded(.down))
        return minutesText(whole)
    }

    /// "5 min" for a session's length (rounded to the nearest minute, at least 1).
    static func length(_ seconds: Double) -> String { minutesText(max(1, Int((seconds / 60).rounded()))) }

    static func minutesText(_ minutes: Int) -> String {
        if minutes <= 0 { return "0 min" }
        if minutes < 60 { return "\(minutes) min" }
        let rest = minutes % 60
        return rest == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(rest) min"
    }

    /// "5 minutes", "1 minute" (for the voice).
    static func spokenMinutes(_ minutes: Int) -> String { minutes == 1 ? "1 minute" : "\(minutes) minutes" }

    /// "3 minutes 15 seconds" (for the voice).
    static func spokenPosition(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds.rounded(.down)))
        let m = whole / 60, s = whole % 60
        var parts: [String] = []
        if m > 0 { parts.append(m == 1 ? "1 minute" : "\(m) minutes") }
        if s > 0 || m == 0 { parts.append(s == 1 ? "1 second" : "\(s) seconds") }
        return parts.joined(separator: " ")
    }

    /// "3 minutes 15", "45 seconds", "2 minutes" (for short labels and the seek's targets).
    static func spokenPositionShort(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds.rounded(.down)))
        let m = whole / 60, s = whole % 60
        if m == 0 { return s == 1 ? "1 second" : "\(s) seconds" }
        let minutes = m == 1 ? "1 minute" : "\(m) minutes"
        return s == 0 ? minutes : "\(minutes) \(s)"
    }

    /// The first sentence of a label (up to and including its first ".", "?" or "!" followed by a space).
    public static func firstSentence(_ text: String) -> String {
        let characters = Array(text)
        for index in characters.indices where ".?!".contains(characters[index]) {
            if index + 1 < characters.count, characters[index + 1] == " " {
                return String(characters[...index])
            }
        }
        return text
    }

    /// "at 2 minutes 10 seconds, 3 minutes left" (for the voice): where the recording is and what remains,
    /// the remainder in whole minutes (rounded up) until the last minute, which counts seconds.
    static func spokenWhere(_ player: InterfaceModel.PlayerInfo, now: MonotonicInstant) -> String {
        let position = player.position(at: now)
        guard player.lengthSeconds > 0 else { return "at \(spokenPosition(position))" }
        let left = max(0, Int((player.lengthSeconds - position).rounded(.up)))
        let remaining = left >= 60 ? spokenMinutes((left + 59) / 60) : (left == 1 ? "1 second" : "\(left) seconds")
        return "at \(spokenPosition(position)), \(remaining) left"
    }

    static func themeName(_ theme: Theme) -> String {
        switch theme {
        case .breathe: return "Breathe"
        case .focus: return "Focus"
        case .unwind: return "Unwind"
        }
    }

    static func filterName(_ filter: LibraryFilter) -> String {
        switch filter {
        case .all: return "All"
        case .breathe: return "Breathe"
        case .focus: return "Focus"
        case .unwind: return "Unwind"
        case .favourites: return "Favourites"
        case .onThisBox: return "On this box"
        }
    }

    /// Where the recording is: "On this box", "Download · 4.2 MB", "Downloading 45%".
    static func availability(_ session: InterfaceModel.SessionItem) -> String {
        if session.isBundled { return "On this box" }
        guard let status = session.download else { return "On this box" }
        let size = (status.bytesTotal ?? session.downloadBytes).map { ByteCountText.text($0) }
        switch status.state {
        case .available, .cancelled:
            if status.previousCopyOnThisBox { return "On this box" }
            if status.offer == .remembered { return "Download when online" + (size.map { " \u{00B7} \($0)" } ?? "") }
            return size.map { "Download \u{00B7} \($0)" } ?? "Download"
        case .queued: return "Waiting to download"
        case .downloading:
            if let percent = status.percent { return "Downloading \(percent)%" }
            return "Downloading"
        case .verifying: return "Checking the download"
        case .onThisBox: return status.offer == .withdrawn ? "On this box \u{00B7} no longer offered" : "On this box"
        case .failed: return status.previousCopyOnThisBox ? "On this box \u{00B7} update failed" : "Download failed"
        }
    }

    /// The one line under a card's title: "5 min · Breathe · On this box".
    static func cardMeta(_ session: InterfaceModel.SessionItem) -> String {
        var parts = [length(session.durationSeconds), themeName(session.theme), availability(session)]
        if session.isFavourite { parts.append("Favourite") }
        return parts.joined(separator: " \u{00B7} ")
    }

    /// What a session's card says to the voice.
    static func sessionLabel(_ session: InterfaceModel.SessionItem) -> String {
        var text = "\(session.title). \(spokenMinutes(max(1, Int((session.durationSeconds / 60).rounded())))), "
            + "\(themeName(session.theme)). \(availability(session))."
        if session.isFavourite { text += " Favourite." }
        return text
    }

    /// The words for a player state, as the big state line shows them.
    static func playerState(_ player: InterfaceModel.PlayerInfo) -> String {
        switch player.phase {
        case .idle: return "Nothing playing"
        case .loading: return "Getting ready"
        case .playing: return "Playing"
        case .paused:
            switch player.pauseReason {
            case .headphonesRemoved: return "Paused \u{2014} headphones out"
            case .outputLost: return "Paused \u{2014} no sound output"
            case .interruption: return "Paused for a moment"
            case .shutdown: return "Paused"
            case .damagedRecording: return "Stopped \u{2014} the recording is damaged here"
            case .user, nil: return "Paused"
            }
        case .ended: return "Finished"
        case .failed: return "Could not play"
        }
    }

    /// A notice's heading, by kind: what the screen shows above it and what the voice says first.
    public static func noticeHeading(_ kind: NoticeKind) -> String {
        switch kind {
        case .databaseMovedAside: return "History started afresh"
        case .outputLost: return "No sound output"
        case .downloadFailed: return "A download failed"
        case .reminder: return "Time for a pause"
        case .storageReadOnly: return "Nothing can be saved"
        case .storageFull: return "The memory card is full"
        case .settingReplaced: return "A setting was put back"
        case .updateFailed: return "The update was not installed"
        case .updateRolledBack: return "The update was undone"
        case .wifiNotJoined: return "Wi-Fi not joined"
        case .controlsMissing: return "Some controls do not answer"
        default: return "Notice"
        }
    }

    static func noticeAdvice(_ kind: NoticeKind) -> String {
        switch kind {
        case .databaseMovedAside:
            return "Nothing, unless you want the old history back: sessions play as before and new practice is kept. "
                + "The damaged file was kept, not deleted; a maintainer can look at it with stillroomctl doctor."
        case .outputLost:
            return "Check that the speaker or headphones cable is plugged in. Playback stays paused; "
                + "press PLAY when the sound is back."
        case .downloadFailed:
            return "Open the session in the library to try again, or remove it to free the space."
        case .reminder:
            return "Press PLAY to start a session, or dismiss this card."
        case .storageReadOnly:
            return "Listen as usual; when the box restarts it will try again. Dismissing this card hides it until then."
        case .storageFull:
            return "Listen as usual. Remove a downloaded session you no longer need (open it in the library); saving "
                + "starts again by itself as soon as there is room."
        case .updateFailed:
            return "Nothing changed: the box runs as before. Whoever looks after it can see stillroomctl update status."
        case .updateRolledBack:
            return "The box is back on the version it ran before, with your history and places as they were. "
                + "Whoever looks after it can see stillroomctl update status."
        case .wifiNotJoined:
            return "Nothing, to keep listening: only downloads and setting the clock wait for the network. To join it, "
                + "whoever looks after the box writes wifi.txt again on the card's boot partition; stillroomctl network says more."
        case .controlsMissing:
            return "Everything else works as usual, and these controls work as soon as their device appears. If they never do, "
                + "whoever looks after the box checks the board file's device names; stillroomctl doctor says which."
        default:
            return "Dismiss it when you have read it."
        }
    }

    /// Sentences of a paragraph, for reading stops the knob steps through.
    static func sentences(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            current.append(character)
            let ends = character == "." || character == "!" || character == "?"
            let nextIsSpace = index + 1 < characters.count && characters[index + 1] == " "
            if ends && nextIsSpace && current.count >= 24 {
                result.append(current.trimmingWhitespace)
                current = ""
            }
            index += 1
        }
        let rest = current.trimmingWhitespace
        if !rest.isEmpty { result.append(rest) }
        return result
    }
}
