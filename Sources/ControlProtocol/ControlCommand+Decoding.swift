import StillroomCore

/// Reading a request's command and arguments into a `ControlCommand`, once, for the daemon. Every refusal
/// is `unknown_command` or `invalid_argument` with a message that says what the command takes; what only
/// the daemon can judge (does the session exist, is the setting's value allowed, is something playing)
/// it judges after. Arguments a command does not read are ignored, so newer clients can add some.
extension ControlCommand {
    public static func decode(_ request: ControlRequest) -> Result<ControlCommand, ControlError> {
        do {
            return .success(try decode(name: request.command, ArgumentReader(command: request.command, arguments: request.arguments)))
        } catch {
            return .failure(error)
        }
    }

    /// Why a timer cannot start, from the daemon too (its defaults come from settings).
    public static let timerRefusal = "a timer takes a pattern (\(BreathingTimer.patterns.map(\.name).joined(separator: ", "))) and 1 to 60 minutes"

    private static func decode(name: String, _ reader: ArgumentReader) throws(ControlError) -> ControlCommand {
        switch name {
        case "status": return .status
        case "play": return .play(session: try reader.string("session"))
        case "pause": return .pause
        case "resume": return .resume
        case "toggle": return .toggle
        case "stop": return .stop
        case "seek": return .seek(try seekTarget(reader))
        case "volume":
            guard let level = reader.integer("level"), (0...100).contains(level) else { throw invalid("volume needs a level from 0 to 100") }
            return .volume(level: level)
        case "dismiss":
            guard reader.has("notice") else { return .dismiss(notice: nil) }
            guard let notice = reader.integer("notice") else { throw invalid("dismiss takes a notice number; see stillroomctl status") }
            return .dismiss(notice: notice)
        case "sessions": return .sessions
        case "show": return .show(session: try reader.session())
        case "transcript": return .transcript(session: try reader.session())
        case "favorite":
            let session = try reader.session()
            switch try reader.string("action") ?? "add" {
            case "add": return .favorite(session: session, add: true)
            case "remove": return .favorite(session: session, add: false)
            case let other: throw invalid("unknown favorite action \"\(other)\"; use add or remove")
            }
        case "doctor": return .doctor
        case "say":
            guard let text = try reader.string("text"), !text.isEmpty, text.count <= 500 else { throw invalid("say needs a text of 1 to 500 characters") }
            return .say(text: text)
        case "settings":
            guard let key = try reader.string("key") else { return .settings(change: nil) }
            guard let value = try reader.string("value") else { throw invalid("settings set needs a KEY and a VALUE") }
            return .settings(change: SettingChange(key: key, value: value))
        case "history": return .history(try history(reader))
        case "downloads": return .downloads(try downloads(reader))
        case "reminder": return .reminder(try reminder(reader))
        case "timer": return .timer(try timer(reader))
        case "screenshot":
            guard let name = try reader.string("name"), ControlCommand.isScreenshotName(name) else {
                throw invalid("screenshot needs a file name ending in .png (letters, digits, - and _; no folder): "
                    + "the daemon writes only into its own screenshot folder")
            }
            return .screenshot(name: name)
        case "update":
            switch try reader.string("action") ?? "status" {
            case "status": return .update(.status)
            case "install": return .update(.install(source: try reader.string("source") ?? "", confirmed: reader.bool("yes") == true))
            case let other: throw invalid("unknown update action \"\(other)\"; use install or status")
            }
        case "network": return .network
        default:
            throw ControlError(.unknownCommand, "unknown command \"\(name)\"; see stillroomctl --help")
        }
    }

    private static func seekTarget(_ reader: ArgumentReader) throws(ControlError) -> SeekTarget {
        let limit = seekLimitSeconds
        // Checked here, before any conversion to frames: Int64(±1e15 × 48 000) traps, and a client must never stop the box.
        if let by = reader.number("by") {
            guard by.isFinite, abs(by) <= limit else { throw invalid("seek by at most \(Int(limit)) seconds either way") }
            return .by(seconds: by)
        }
        if let to = reader.number("to") {
            guard to.isFinite, (0...limit).contains(to) else { throw invalid("seek to a place from 0 to \(Int(limit)) seconds") }
            return .to(seconds: to)
        }
        throw invalid("seek needs \"by\" (seconds, + or -) or \"to\" (seconds from the start)")
    }

    private static func history(_ reader: ArgumentReader) throws(ControlError) -> HistoryRequest {
        switch try reader.string("view") ?? "month" {
        case "month":
            guard let text = try reader.string("month") else { return .month(nil) }
            guard let month = HistoryReport.parseMonth(text) else {
                throw invalid("--month takes YYYY-MM \(HistoryReport.monthRangeText), got \"\(text)\"")
            }
            return .month(month)
        case "recent": return .recent
        case "export":
            let text = try reader.string("format") ?? "json"
            guard let format = HistoryExportFormat(rawValue: text) else { throw invalid("--format takes json or csv, got \"\(text)\"") }
            return .export(format)
        case "delete":
            if let run = reader.integer("run") { return .deleteRun(run) }
            guard reader.bool("all") == true else { throw invalid("say which: --run ID, or --all --yes") }
            // The whole history goes for good: the daemon asks for the yes itself, whoever the client is.
            guard reader.bool("yes") == true else {
                throw invalid("deleting the whole history needs \"yes\": true (stillroomctl history delete --all --yes)")
            }
            return .deleteAll
        case let other: throw invalid("unknown history view \"\(other)\"")
        }
    }

    private static func downloads(_ reader: ArgumentReader) throws(ControlError) -> DownloadRequest {
        let action = try reader.string("action") ?? "list"
        guard ["list", "start", "cancel", "remove"].contains(action) else { throw invalid("unknown download action \"\(action)\"") }
        if action == "list" { return .list }
        guard let raw = try reader.string("session"), let id = try? ContentID(validating: raw) else { throw sessionIDNeeded }
        switch action {
        case "start": return .start(id)
        case "cancel": return .cancel(id)
        default: return .remove(id, confirmed: reader.bool("confirmed") == true)
        }
    }

    private static func reminder(_ reader: ArgumentReader) throws(ControlError) -> ReminderRequest {
        switch try reader.string("action") ?? "show" {
        case "show": return .show
        case "off": return .off
        case "set":
            return .set(try ReminderChoice.parse(time: try reader.string("time"), days: try reader.string("days"),
                                                 style: try reader.string("style"), quiet: try reader.string("quiet")))
        case let other: throw invalid("unknown reminder action \"\(other)\"")
        }
    }

    private static func timer(_ reader: ArgumentReader) throws(ControlError) -> TimerRequest {
        switch try reader.string("action") ?? "show" {
        case "show": return .show
        case "stop": return .stop
        case "start":
            let pattern = try reader.string("pattern")
            if let pattern, !BreathingTimer.patterns.contains(where: { $0.name == pattern }) { throw invalid(timerRefusal) }
            guard reader.has("minutes") else { return .start(pattern: pattern, minutes: nil) }
            guard let minutes = reader.integer("minutes"), (1...60).contains(minutes) else { throw invalid(timerRefusal) }
            return .start(pattern: pattern, minutes: minutes)
        case let other: throw invalid("unknown timer action \"\(other)\"")
        }
    }

    static func invalid(_ message: String) -> ControlError { ControlError(.invalidArgument, message) }

    /// The refusal of a missing or malformed session id.
    public static let sessionIDNeeded = ControlError(.invalidArgument, "a session id is needed; see stillroomctl sessions")
}

extension ControlCommand.ReminderChoice {
    /// A reminder from the words `reminder set` takes (the CLI's flags, the request's arguments), with the
    /// refusal that says which word does not fit.
    public static func parse(time: String?, days: String?, style: String?, quiet: String?) throws(ControlError) -> Self {
        guard let time, let minute = try? Settings.timeOfDay(time) else {
            throw ControlCommand.invalid("reminder set takes a time as HH:MM (24-hour)")
        }
        var choice = Self(minuteOfDay: minute)
        if let days {
            guard let parsed = ReminderDays.parse(days) else {
                throw ControlCommand.invalid("--days takes names like mon,tue,wed (or all, weekdays, weekends), got \"\(days)\"")
            }
            choice.weekdays = parsed
        }
        if let style {
            guard let parsed = ReminderStyle(rawValue: style) else { throw ControlCommand.invalid("--style takes chime or glow, got \"\(style)\"") }
            choice.style = parsed
        }
        if let quiet {
            let parts = quiet.split(separator: "-").map(String.init)
            guard parts.count == 2, let start = try? Settings.timeOfDay(parts[0]), let end = try? Settings.timeOfDay(parts[1]) else {
                throw ControlCommand.invalid("--quiet takes HH:MM-HH:MM, got \"\(quiet)\"")
            }
            choice.quiet = ControlCommand.QuietHours(startMinute: start, endMinute: end)
        }
        return choice
    }
}

/// A request's arguments, read by type. `null` counts as left out.
private struct ArgumentReader {
    let command: String
    let arguments: [String: JSONValue]

    func has(_ key: String) -> Bool { arguments[key].map { $0 != .null } ?? false }

    /// The string, nil when left out; any other kind is refused, naming the argument.
    func string(_ key: String) throws(ControlError) -> String? {
        guard has(key), let value = arguments[key] else { return nil }
        guard let text = value.stringValue else {
            throw ControlError(.invalidArgument, "\(command): \"\(key)\" takes a string, got \(value.kindDescription)")
        }
        return text
    }

    /// The session id a command needs.
    func session() throws(ControlError) -> String {
        guard let id = try string("session") else { throw ControlCommand.sessionIDNeeded }
        return id
    }

    /// A number, nil when left out or not a number (the caller says what it takes).
    func number(_ key: String) -> Double? { arguments[key]?.doubleValue }

    /// A whole number that fits exactly (|n| ≤ 2^53), else nil.
    func integer(_ key: String) -> Int? { arguments[key]?.integerValue }

    func bool(_ key: String) -> Bool? { arguments[key]?.boolValue }
}
