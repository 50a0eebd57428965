/// The owner's choices, with their defaults. Stored as text (table `setting`), validated here, so the
/// box, the CLI and the database agree on what each key means and which values it takes.
public struct Settings: Equatable, Sendable {
    public enum TextSize: String, Sendable, CaseIterable { case regular, large, largest }
    public enum NightMode: String, Sendable, CaseIterable { case auto, on, off }
    /// How much the voice says: `full` labels (the name, then details and what to do), or `short` ones
    /// (the name and the one thing that changed), as the talking-book players offer.
    public enum Verbosity: String, Sendable, CaseIterable { case full, short }

    public var volume = 60
    public var speakerCap = 100
    public var headphonesCap = 70
    public var nightCap = 40
    public var textSize = TextSize.regular
    public var reduceMotion = false
    /// Night display (dim, warm, no bright blue): automatic between `nightStarts` and `nightEnds`.
    public var nightMode = NightMode.auto
    public var nightStarts = 21 * 60
    public var nightEnds = 7 * 60
    public var spokenLabels = false
    public var verbosity = Verbosity.full
    /// Minutes after midnight at which a practice day begins (late-night practice counts for the evening).
    public var dayBoundary = 4 * 60
    public var showStreak = true
    /// Seconds without a touch before the screen dims, then goes dark (a touch wakes it).
    public var dimAfterSeconds = 30
    public var darkAfterSeconds = 120
    /// Whether breathing-timer minutes are recorded as (silent) practice, shown apart from listening.
    public var timerCounts = true
    /// The breathing timer's last choice (the box's set-up screen remembers it; the CLI's default).
    public var timerMinutes = 5
    public var timerPattern = "4-6"

    public init() {}

    /// Every key, in the order `stillroomctl settings` lists them.
    public static let keys: [String] = [
        "volume", "speaker-cap", "headphones-cap", "night-cap", "text-size", "reduce-motion", "night-mode",
        "night-starts", "night-ends", "spoken-labels", "day-boundary", "show-streak", "dim-after", "dark-after",
        "timer-counts", "timer-minutes", "timer-pattern", "verbosity",
    ]

    /// What each key is, for help text and the settings screen.
    public static let explanations: [String: String] = [
        "volume": "listening volume, 0-100",
        "speaker-cap": "highest volume on the speaker, 0-100",
        "headphones-cap": "highest volume on headphones, 0-100",
        "night-cap": "highest volume at night, 0-100",
        "text-size": "regular, large or largest",
        "reduce-motion": "on: the breathing circle changes without moving; off",
        "night-mode": "auto (between night-starts and night-ends), on or off",
        "night-starts": "when night display begins, HH:MM",
        "night-ends": "when night display ends, HH:MM",
        "spoken-labels": "on: the box says what is focused and what happens; off",
        "day-boundary": "when a practice day begins, 00:00-11:59 (04:00: late nights count for the evening)",
        "show-streak": "on or off: show the run of practice days",
        "dim-after": "seconds without a touch before the screen dims, 5-3600",
        "dark-after": "seconds without a touch before the screen goes dark, 10-7200",
        "timer-counts": "on: breathing-timer minutes are kept as silent practice (apart from listening); off",
        "timer-minutes": "the breathing timer's length in minutes, 1-60 (the box remembers the last one)",
        "timer-pattern": "the breathing timer's pattern: 4-4, 4-7-8, box or 4-6",
        "verbosity": "full: spoken labels give details and what to do; short: just the name and what changed",
    ]

    /// Reads stored text; a stored value that no longer parses (or that an older version accepted and this
    /// one refuses) falls back to its default and is reported in `storedProblems`.
    public init(stored: [String: String]) {
        self.init()
        for (key, value) in stored.sorted(by: { $0.key < $1.key }) where Self.keys.contains(key) {
            do {
                try set(key, to: value)
            } catch {
                storedProblems.append(StoredSettingProblem(key: key, storedValue: value, reason: error.message,
                                                           replacement: self.value(of: key)))
            }
        }
    }

    /// Stored values that were refused while reading, each replaced by its default.
    public private(set) var storedProblems: [StoredSettingProblem] = []

    /// The same, as log lines.
    public var problems: [String] { storedProblems.map(\.description) }

    /// Sets `key` from text, or explains what it takes.
    public mutating func set(_ key: String, to text: String) throws(SettingError) {
        let value = text.trimmingWhitespace
        switch key {
        case "volume": volume = try Self.integer(value, 0...100)
        case "speaker-cap": speakerCap = try Self.integer(value, 0...100)
        case "headphones-cap": headphonesCap = try Self.integer(value, 0...100)
        case "night-cap": nightCap = try Self.integer(value, 0...100)
        case "text-size": textSize = try Self.choice(value, TextSize.self)
        case "reduce-motion": reduceMotion = try Self.switchValue(value)
        case "night-mode": nightMode = try Self.choice(value, NightMode.self)
        case "night-starts": nightStarts = try Self.timeOfDay(value)
        case "night-ends": nightEnds = try Self.timeOfDay(value)
        case "spoken-labels": spokenLabels = try Self.switchValue(value)
        case "day-boundary": dayBoundary = try Self.dayBoundaryMinutes(value)
        case "show-streak": showStreak = try Self.switchValue(value)
        case "dim-after": dimAfterSeconds = try Self.integer(value, 5...3600)
        case "dark-after": darkAfterSeconds = try Self.integer(value, 10...7200)
        case "timer-counts": timerCounts = try Self.switchValue(value)
        case "timer-minutes": timerMinutes = try Self.integer(value, 1...60)
        case "timer-pattern": timerPattern = try Self.timerPatternName(value)
        case "verbosity": verbosity = try Self.choice(value, Verbosity.self)
        default: throw SettingError("unknown setting \"\(key)\"; known: \(Self.keys.joined(separator: ", "))")
        }
    }

    /// The value of `key` as text (what is stored and shown).
    public func value(of key: String) -> String {
        switch key {
        case "volume": return String(volume)
        case "speaker-cap": return String(speakerCap)
        case "headphones-cap": return String(headphonesCap)
        case "night-cap": return String(nightCap)
        case "text-size": return textSize.rawValue
        case "reduce-motion": return reduceMotion ? "on" : "off"
        case "night-mode": return nightMode.rawValue
        case "night-starts": return Self.clock(nightStarts)
        case "night-ends": return Self.clock(nightEnds)
        case "spoken-labels": return spokenLabels ? "on" : "off"
        case "day-boundary": return Self.clock(dayBoundary)
        case "show-streak": return showStreak ? "on" : "off"
        case "dim-after": return String(dimAfterSeconds)
        case "dark-after": return String(darkAfterSeconds)
        case "timer-counts": return timerCounts ? "on" : "off"
        case "timer-minutes": return String(timerMinutes)
        case "timer-pattern": return timerPattern
        case "verbosity": return verbosity.rawValue
        default: return ""
        }
    }

    /// The volume rules these settings make.
    public var volumePolicy: VolumePolicy {
        VolumePolicy(volume: volume, speakerCap: speakerCap, headphonesCap: headphonesCap, nightCap: nightCap)
    }

    /// Whether the night display applies at `minuteOfDay` (local).
    public func isNight(atMinuteOfDay minute: Int) -> Bool {
        switch nightMode {
        case .on: return true
        case .off: return false
        case .auto:
            if nightStarts == nightEnds { return false }
            return nightStarts < nightEnds ? (minute >= nightStarts && minute < nightEnds)
                                           : (minute >= nightStarts || minute < nightEnds)
        }
    }

    // MARK: Parsing

    static func integer(_ text: String, _ range: ClosedRange<Int>) throws(SettingError) -> Int {
        guard let value = DecimalText.wholeNumber(text), range.contains(value) else {
            throw SettingError("expected a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
        }
        return value
    }

    static func switchValue(_ text: String) throws(SettingError) -> Bool {
        switch text.lowercased() {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default: throw SettingError("expected on or off, got \"\(text)\"")
        }
    }

    static func choice<Choice: RawRepresentable & CaseIterable>(_ text: String, _ type: Choice.Type) throws(SettingError) -> Choice
        where Choice.RawValue == String {
        guard let value = Choice(rawValue: text.lowercased()) else {
            throw SettingError("expected \(Choice.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
        }
        return value
    }

    /// One of the breathing timer's pattern names.
    static func timerPatternName(_ text: String) throws(SettingError) -> String {
        let names = BreathingTimer.patterns.map(\.name)
        guard let name = names.first(where: { $0 == text.lowercased() }) else {
            throw SettingError("expected \(names.joined(separator: ", ")), got \"\(text)\"")
        }
        return name
    }

    /// "HH:MM" (24-hour) as minutes after midnight.
    public static func timeOfDay(_ text: String) throws(SettingError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, let hours = DecimalText.wholeNumber(parts[0]),
              let minutes = DecimalText.wholeNumber(parts[1]),
              (0...23).contains(hours), (0...59).contains(minutes), (1...2).contains(parts[0].count) else {
            throw SettingError("expected a time as HH:MM (24-hour), got \"\(text)\"")
        }
        return hours * 60 + minutes
    }

    /// A practice day's start: a time of day from 00:00 to 11:59 (`PracticeDayBoundary`'s rule). A
    /// boundary in the afternoon or evening would cut an ordinary day in two, so it is refused here rather
    /// than quietly replaced by 04:00 where the history is drawn.
    static func dayBoundaryMinutes(_ text: String) throws(SettingError) -> Int {
        let minutes = try timeOfDay(text)
        guard PracticeDayBoundary(hour: minutes / 60, minute: minutes % 60) != nil else {
            throw SettingError("a practice day must begin between 00:00 and 11:59 (a later time would split a day in two), got \"\(text)\"")
        }
        return minutes
    }

    public static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}

/// A setting value that does not fit: what the key takes.
public struct SettingError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
