import StillroomCore

/// A command to the daemon, as a value: what the CLI builds and what the daemon dispatches on. On the wire
/// it is a request's `command` (its `name`) and `arguments`; `ControlCommand.decode` reads it back, once,
/// with the errors the daemon answers bad input with (ControlCommand+Decoding.swift).
public enum ControlCommand: Equatable, Sendable {
    case status
    /// Plays the session, or with none: accepts the resume offer, resumes a pause, or starts the first-boot session.
    case play(session: String?)
    case pause
    case resume
    case toggle
    case stop
    case seek(SeekTarget)
    /// 0 … 100.
    case volume(level: Int)
    /// Dismisses a notice by its number, or with none the resume offer.
    case dismiss(notice: Int?)
    case sessions
    case show(session: String)
    case favorite(session: String, add: Bool)
    case doctor
    /// Speaks 1 to 500 characters through the box.
    case say(text: String)
    /// Lists the settings, after changing one when `change` is given.
    case settings(change: SettingChange?)
    case history(HistoryRequest)
    case downloads(DownloadRequest)
    case reminder(ReminderRequest)
    case timer(TimerRequest)
    /// An absolute path ending in `.png`.
    /// The screen saved as `name` in the daemon's own screenshot folder (never a path a client chooses:
    /// the daemon writes nowhere else); stillroomctl copies it where its user asked.
    case screenshot(name: String)
    case transcript(session: String)
    case update(UpdateRequest)
    case network

    public enum SeekTarget: Equatable, Sendable {
        /// Seconds forward (or back, negative), at most `ControlCommand.seekLimitSeconds` either way.
        case by(seconds: Double)
        /// Seconds from the start, 0 … `ControlCommand.seekLimitSeconds`.
        case to(seconds: Double)
    }

    public struct SettingChange: Equatable, Sendable {
        public var key: String
        public var value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public enum HistoryRequest: Equatable, Sendable {
        /// The month's calendar; nil: the current practice month.
        case month(CivilMonth?)
        case recent
        case export(HistoryExportFormat)
        case deleteRun(Int)
        case deleteAll
    }

    public enum HistoryExportFormat: String, Equatable, Sendable {
        case json
        case csv
    }

    public enum DownloadRequest: Equatable, Sendable {
        case list
        case start(ContentID)
        case cancel(ContentID)
        /// `confirmed` false asks the daemon what would go, which it answers as the refusal's message.
        case remove(ContentID, confirmed: Bool)
    }

    public enum ReminderRequest: Equatable, Sendable {
        case show
        case off
        case set(ReminderChoice)
    }

    /// A reminder as asked for; what is left out keeps the stored choice (style, quiet hours) or is every day.
    public struct ReminderChoice: Equatable, Sendable {
        public var minuteOfDay: Int
        public var weekdays: ReminderWeekdays?
        public var style: ReminderStyle?
        /// Start and end minute of the quiet hours.
        public var quiet: QuietHours?

        public init(minuteOfDay: Int, weekdays: ReminderWeekdays? = nil, style: ReminderStyle? = nil, quiet: QuietHours? = nil) {
            self.minuteOfDay = minuteOfDay
            self.weekdays = weekdays
            self.style = style
            self.quiet = quiet
        }
    }

    public struct QuietHours: Equatable, Sendable {
        public var startMinute: Int
        public var endMinute: Int

        public init(startMinute: Int, endMinute: Int) {
            self.startMinute = startMinute
            self.endMinute = endMinute
        }
    }

    public enum TimerRequest: Equatable, Sendable {
        case show
        /// What is left out is the choice last made on the box.
        case start(pattern: String?, minutes: Int?)
        case stop
    }

    public enum UpdateRequest: Equatable, Sendable {
        case status
        /// The bundle's source as typed; the daemon checks it against its download hosts. An install
        /// restarts the box into another version: a client that is not root must say it means it
        /// (`confirmed`, stillroomctl's --yes), which the daemon itself checks.
        case install(source: String, confirmed: Bool)
    }

    /// The farthest a seek may ask for, either way: a day, longer than any recording the box plays.
    /// Places past the end are clamped by the player; numbers beyond this are a mistake and refused.
    public static let seekLimitSeconds = 86_400.0
}

extension ControlCommand {
    /// The request's `command` on the wire.
    public var name: String {
        switch self {
        case .status: "status"
        case .play: "play"
        case .pause: "pause"
        case .resume: "resume"
        case .toggle: "toggle"
        case .stop: "stop"
        case .seek: "seek"
        case .volume: "volume"
        case .dismiss: "dismiss"
        case .sessions: "sessions"
        case .show: "show"
        case .favorite: "favorite"
        case .doctor: "doctor"
        case .say: "say"
        case .settings: "settings"
        case .history: "history"
        case .downloads: "downloads"
        case .reminder: "reminder"
        case .timer: "timer"
        case .screenshot: "screenshot"
        case .transcript: "transcript"
        case .update: "update"
        case .network: "network"
        }
    }

    /// The request's `arguments` on the wire (what `decode` reads back to the same command).
    public var arguments: [String: JSONValue] {
        switch self {
        case .status, .pause, .resume, .toggle, .stop, .sessions, .doctor, .network: [:]
        case .play(let session): session.map { ["session": .string($0)] } ?? [:]
        case .seek(.by(let seconds)): ["by": .number(seconds)]
        case .seek(.to(let seconds)): ["to": .number(seconds)]
        case .volume(let level): ["level": .number(Double(level))]
        case .dismiss(let notice): notice.map { ["notice": .number(Double($0))] } ?? [:]
        case .show(let session), .transcript(let session): ["session": .string(session)]
        case .favorite(let session, let add): ["action": .string(add ? "add" : "remove"), "session": .string(session)]
        case .say(let text): ["text": .string(text)]
        case .settings(let change): change.map { ["key": .string($0.key), "value": .string($0.value)] } ?? [:]
        case .history(let request): request.arguments
        case .downloads(let request): request.arguments
        case .reminder(let request): request.arguments
        case .timer(let request): request.arguments
        case .screenshot(let name): ["name": .string(name)]
        case .update(.status): ["action": "status"]
        case .update(.install(let source, let confirmed)): ["action": "install", "source": .string(source), "yes": .bool(confirmed)]
        }
    }

    /// Whether the command starts sound or the breathing timer (refused while an update installs).
    public var startsPractice: Bool {
        switch self {
        case .play, .resume, .toggle, .timer(.start): true
        default: false
        }
    }
}

extension ControlCommand.HistoryRequest {
    var arguments: [String: JSONValue] {
        switch self {
        case .month(nil): ["view": "month"]
        case .month(let month?): ["view": "month", "month": .string(month.description)]
        case .recent: ["view": "recent"]
        case .export(let format): ["view": "export", "format": .string(format.rawValue)]
        case .deleteRun(let run): ["view": "delete", "run": .number(Double(run))]
        case .deleteAll: ["view": "delete", "all": true, "yes": true]
        }
    }
}

extension ControlCommand.DownloadRequest {
    var arguments: [String: JSONValue] {
        switch self {
        case .list: [:]
        case .start(let id): ["action": "start", "session": .string(id.rawValue)]
        case .cancel(let id): ["action": "cancel", "session": .string(id.rawValue)]
        case .remove(let id, let confirmed): ["action": "remove", "session": .string(id.rawValue), "confirmed": .bool(confirmed)]
        }
    }
}

extension ControlCommand.ReminderRequest {
    var arguments: [String: JSONValue] {
        switch self {
        case .show: return [:]
        case .off: return ["action": "off"]
        case .set(let choice):
            var arguments: [String: JSONValue] = ["action": "set", "time": .string(Settings.clock(choice.minuteOfDay))]
            if let weekdays = choice.weekdays { arguments["days"] = .string(ReminderDays.wireText(weekdays)) }
            if let style = choice.style { arguments["style"] = .string(style.rawValue) }
            if let quiet = choice.quiet {
                arguments["quiet"] = .string("\(Settings.clock(quiet.startMinute))-\(Settings.clock(quiet.endMinute))")
            }
            return arguments
        }
    }
}

extension ControlCommand.TimerRequest {
    var arguments: [String: JSONValue] {
        switch self {
        case .show: return [:]
        case .stop: return ["action": "stop"]
        case .start(let pattern, let minutes):
            var arguments: [String: JSONValue] = ["action": "start"]
            if let pattern { arguments["pattern"] = .string(pattern) }
            if let minutes { arguments["minutes"] = .number(Double(minutes)) }
            return arguments
        }
    }
}

extension ControlRequest {
    /// The request carrying `command` on the wire.
    public init(id: Int, _ command: ControlCommand) {
        self.init(id: id, command: command.name, arguments: command.arguments)
    }
}

extension ControlCommand {
    /// A screenshot's name: 1 to 64 of letters, digits, `-` and `_`, then `.png`; no folder, no dot-name.
    public static func isScreenshotName(_ name: String) -> Bool {
        guard name.hasSuffix(".png") else { return false }
        let stem = name.utf8.dropLast(4)
        return (1...64).contains(stem.count) && stem.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
