import ControlProtocol
import Glibc
import StillroomCore
import SystemCalls

/// Turns a command line into a request, sends it (or answers from the database when the daemon is
/// down and the command only reads), and prints the result.
struct CommandRunner {
    let invocation: Invocation
    var connection: Connection { Connection(invocation) }

    func run(_ command: String) -> ExitStatus {
        do {
            switch command {
            case "status":
                try expectWords(atMost: 0)
                return try daemonOrOffline(.status, offline: { try Offline(invocation).status() }, print: Output.status)
            case "play":
                try expectWords(atMost: 1)
                return try daemon(.play(session: invocation.words.first), print: Output.status)
            case "pause": return try plainPlayerCommand(.pause)
            case "resume": return try plainPlayerCommand(.resume)
            case "toggle": return try plainPlayerCommand(.toggle)
            case "stop": return try plainPlayerCommand(.stop)
            case "seek": return try daemon(.seek(try SeekArgument.parse(invocation.words)), print: Output.status)
            case "volume":
                guard invocation.words.count == 1, let level = DecimalText.wholeNumber(invocation.words[0]), (0...100).contains(level) else {
                    throw UsageError("volume needs one number from 0 to 100")
                }
                return try daemon(.volume(level: level), print: Output.status)
            case "dismiss":
                try expectWords(atMost: 0)
                var notice: Int?
                if let text = invocation.flags["--notice"] {
                    guard let id = DecimalText.integer(text) else { throw UsageError("--notice needs a notice number (see status)") }
                    notice = id
                }
                return try daemon(.dismiss(notice: notice), print: Output.status)
            case "sessions":
                try expectWords(atMost: 0)
                if let theme = invocation.flags["--theme"], Theme(rawValue: theme) == nil {
                    throw UsageError("--theme: expected breathe, focus or unwind, got \"\(theme)\"")
                }
                return try daemonOrOffline(.sessions, offline: { try Offline(invocation).sessions() }) { result in
                    Output.sessions(SessionSummary.list(json: result), filter: invocation.flags)
                }
            case "show":
                let id = try oneWord("a session id")
                return try daemonOrOffline(.show(session: id), offline: { try Offline(invocation).show(id) }, print: Output.session)
            case "screenshot":
                let file = try oneWord("a file name ending in .png")
                guard file.hasSuffix(".png") else { throw UsageError("the screenshot file must end in .png") }
                let absolute = file.hasPrefix("/") ? file : Self.currentDirectory() + "/" + file
                if let problem = ScreenshotCopy.targetProblem(absolute) { fail(problem, .failed) }
                return try daemon(.screenshot(name: "stillroomctl-\(getpid()).png"), print: { _ in "Saved \(absolute)" }, amend: { result in
                    guard let written = ScreenshotReport(json: result)?.path else { fail("the daemon did not say where it saved the screenshot", .failed) }
                    do throws(SystemError) {
                        try ScreenshotCopy.copy(from: written, to: absolute)
                    } catch {
                        fail("the screenshot was saved as \(written) but not copied to \(absolute): \(error)", .failed)
                    }
                    guard case .object(var members) = result else { return result }
                    members["path"] = .string(absolute)
                    return .object(members)
                })
            case "say":
                guard !invocation.words.isEmpty else { throw UsageError("say needs a text") }
                let text = invocation.words.joined(separator: " ")
                return try daemon(.say(text: text), print: { _ in "Said through the box: \(TerminalText.safe(text))" })
            case "downloads":
                try expectWords(atMost: 0)
                return try daemonOrOffline(.downloads(.list), offline: { try Offline(invocation).downloads() }, print: Output.downloads)
            case "download":
                return try downloadCommand()
            case "history":
                return try historyCommand()
            case "reminder":
                return try reminderCommand()
            case "timer":
                switch invocation.words.first {
                case nil: return try daemon(.timer(.show), print: Output.timer)
                case "stop":
                    try expectWords(atMost: 1)
                    return try daemon(.timer(.stop), print: { _ in "Breathing timer stopped." })
                case "start":
                    try expectWords(atMost: 1)
                    var minutes: Int?
                    if let text = invocation.flags["--minutes"] {
                        guard let value = DecimalText.wholeNumber(text) else { throw UsageError("--minutes takes a whole number from 1 to 60") }
                        minutes = value
                    }
                    return try daemon(.timer(.start(pattern: invocation.flags["--pattern"], minutes: minutes)), print: Output.timer)
                case let other?:
                    throw UsageError("unknown timer action \"\(other)\"; use start or stop")
                }
            case "settings":
                if invocation.words.first == "set" {
                    guard invocation.words.count == 3 else { throw UsageError("usage: stillroomctl settings set KEY VALUE") }
                    return try daemon(.settings(change: .init(key: invocation.words[1], value: invocation.words[2])), print: Output.settings)
                }
                try expectWords(atMost: 0)
                return try daemonOrOffline(.settings(change: nil), offline: { try Offline(invocation).settings() }, print: Output.settings)
            case "doctor":
                try expectWords(atMost: 0)
                if invocation.flags["--essential"] != nil {
                    // What PLAY needs, asked of the running daemon only: the update's slot check (docs/updates.md).
                    return try daemon(.doctor, print: { Output.doctor(DoctorReport(json: $0).essential.json) },
                                      failsWhen: { !DoctorReport(json: $0).essential.ok })
                }
                return try daemonOrOffline(.doctor, offline: { try Offline(invocation).doctor() }, print: Output.doctor,
                                           failsWhen: { !DoctorReport(json: $0).ok }, amend: NetworkCommand(invocation: invocation).addCheck)
            case "transcript":
                let id = try oneWord("a session id")
                return try daemonOrOffline(.transcript(session: id), offline: { try Offline(invocation).transcript(id) },
                                           print: Output.transcript,
                                           offlineNote: "the daemon is not running; this is read from the content folder "
                                               + "\(invocation.contentDirectory) (a downloaded session's transcript needs the daemon)")
            case "update":
                return try UpdateCommand(invocation: invocation).run()
            case "network":
                try expectWords(atMost: 0)
                return NetworkCommand(invocation: invocation).run()
            case "favorite":
                guard invocation.words.count == 2, ["add", "remove"].contains(invocation.words[0]) else {
                    throw UsageError("usage: stillroomctl favorite add|remove ID")
                }
                return try daemon(.favorite(session: invocation.words[1], add: invocation.words[0] == "add"), print: Output.session)
            default:
                throw UnknownCommand(name: command)
            }
        } catch let error as UnknownCommand {
            fail("unknown command \"\(TerminalText.safe(error.name))\"\nTry 'stillroomctl --help' for the commands.", .usage)
        } catch let error as UsageError {
            fail("\(error.message)\nTry 'stillroomctl \(command) --help'.", .usage)
        } catch let error as OfflineError {
            fail(error.message, error.status)
        } catch {
            fail("\(error)", .failed)
        }
    }

    private func downloadCommand() throws -> ExitStatus {
        let words = invocation.words
        switch (words.first, words.count) {
        case ("cancel", 2):
            return try daemon(.downloads(.cancel(sessionID(words[1]))), print: Output.downloadStatus)
        case ("remove", 2):
            guard invocation.flags["--yes"] != nil else {
                throw UsageError("this removes the downloaded recording from the box; add --yes to confirm")
            }
            return try daemon(.downloads(.remove(sessionID(words[1]), confirmed: true)), print: { _ in "Removed \(words[1]) from the box." })
        case (.some(let id), 1) where id != "cancel" && id != "remove":
            return try daemon(.downloads(.start(sessionID(id))), print: Output.downloadStatus)
        default:
            throw UsageError("usage: stillroomctl download ID | download cancel ID | download remove ID --yes")
        }
    }

    private func reminderCommand() throws -> ExitStatus {
        switch invocation.words.first {
        case nil:
            return try daemonOrOffline(.reminder(.show), offline: { try Offline(invocation).reminder() }, print: Output.reminder)
        case "off":
            try expectWords(atMost: 1)
            return try daemon(.reminder(.off), print: Output.reminder)
        case "set":
            guard invocation.words.count == 2 else { throw UsageError("usage: stillroomctl reminder set HH:MM [--days mon,tue…] [--style chime|glow] [--quiet HH:MM-HH:MM]") }
            let flags = invocation.flags
            let choice: ControlCommand.ReminderChoice
            do {
                choice = try .parse(time: invocation.words[1], days: flags["--days"], style: flags["--style"], quiet: flags["--quiet"])
            } catch {
                refuse(error)
            }
            return try daemon(.reminder(.set(choice)), print: Output.reminder)
        case let other?:
            throw UsageError("unknown reminder action \"\(other)\"; use set or off")
        }
    }

    private func historyCommand() throws -> ExitStatus {
        let view = invocation.words.first ?? "month"
        try expectWords(atMost: 1)
        switch view {
        case "month":
            var month: CivilMonth?
            if let text = invocation.flags["--month"] {
                guard let parsed = HistoryReport.parseMonth(text) else { throw UsageError("--month takes YYYY-MM \(HistoryReport.monthRangeText), got \"\(text)\"") }
                month = parsed
            }
            return try historyFromDaemonOrOffline(.month(month), print: Output.historyMonth)
        case "recent":
            return try historyFromDaemonOrOffline(.recent, print: Output.historyRecent)
        case "export":
            let text = invocation.flags["--format"] ?? "json"
            guard let format = ControlCommand.HistoryExportFormat(rawValue: text) else { throw UsageError("--format takes json or csv, got \"\(text)\"") }
            return try historyFromDaemonOrOffline(.export(format), print: { HistoryExportReport(json: $0).text })
        case "delete":
            if invocation.flags["--run"] != nil && invocation.flags["--all"] != nil {
                throw UsageError("history delete takes --run ID or --all --yes, not both")
            }
            if let run = invocation.flags["--run"] {
                guard let id = DecimalText.wholeNumber(run) else { throw UsageError("--run takes a run number (see history recent)") }
                return try daemon(.history(.deleteRun(id)), print: { Output.historyDeleted($0, run: id) })
            }
            guard invocation.flags["--all"] != nil else { throw UsageError("history delete needs --run ID, or --all --yes") }
            guard invocation.flags["--yes"] != nil else {
                throw UsageError("this deletes the whole practice history for good, with any damaged copies of the database "
                    + "set aside earlier (they hold older history); add --yes to confirm")
            }
            return try daemon(.history(.deleteAll), print: { Output.historyDeleted($0, run: nil) })
        default:
            throw UsageError("unknown history view \"\(view)\"; use month, recent, export or delete")
        }
    }

    /// A command of the player's that takes no words and answers the status.
    private func plainPlayerCommand(_ command: ControlCommand) throws -> ExitStatus {
        try expectWords(atMost: 0)
        return try daemon(command, print: Output.status)
    }

    private func historyFromDaemonOrOffline(_ request: ControlCommand.HistoryRequest, print: (JSONValue) -> String) throws -> ExitStatus {
        try daemonOrOffline(.history(request), offline: { try Offline(invocation).history(request) }, print: print)
    }

    /// A session id as the daemon takes it, refused here as the daemon would refuse it.
    private func sessionID(_ text: String) -> ContentID {
        guard let id = try? ContentID(validating: text) else { refuse(ControlCommand.sessionIDNeeded) }
        return id
    }

    private func expectWords(atMost count: Int) throws(UsageError) {
        guard invocation.words.count <= count else { throw UsageError("unexpected \"\(invocation.words[count])\"") }
    }

    private func oneWord(_ what: String) throws(UsageError) -> String {
        guard invocation.words.count == 1 else { throw UsageError("expected \(what)") }
        return invocation.words[0]
    }

    /// A command that needs the daemon.
    private func daemon(_ command: ControlCommand, print: (JSONValue) -> String,
                        failsWhen: (JSONValue) -> Bool = { _ in false }, amend: (JSONValue) -> JSONValue = { $0 }) throws -> ExitStatus {
        let response: ControlResponse
        do {
            response = try connection.send(command)
        } catch {
            switch error {
            case .unreachable(let reason):
                fail("the daemon is not running (\(reason)); start it with: systemctl start stillroom", .unreachable)
            case .refused(let reason): fail(reason, .refused)
            case .broken(let reason): fail(reason, .failed)
            case .elsewhere(let reason): fail(reason, .unreachable)
            }
        }
        guard case .success(let result) = response.outcome else { return show(response, print: print, failsWhen: failsWhen) }
        return show(ControlResponse(id: response.id, outcome: .success(amend(result))), print: print, failsWhen: failsWhen)
    }

    /// A read-only command: from the daemon when it runs, else from the database and content folder.
    /// `offlineNote`, when given, is said on stderr when the answer comes from the files.
    private func daemonOrOffline(_ command: ControlCommand, offline: () throws -> JSONValue,
                                 print: (JSONValue) -> String, failsWhen: (JSONValue) -> Bool = { _ in false },
                                 offlineNote: String? = nil, amend: (JSONValue) -> JSONValue = { $0 }) throws -> ExitStatus {
        let response: ControlResponse
        do {
            response = try connection.send(command)
        } catch {
            switch error {
            case .unreachable:
                let result = amend(try offline())
                if let offlineNote { write("stillroomctl: \(offlineNote)", to: STDERR_FILENO) }
                write(invocation.json ? ControlCodec.json(result) : print(result))
                return failsWhen(result) ? .failed : .ok
            case .refused(let reason): fail(reason, .refused)
            case .broken(let reason): fail(reason, .failed)
            case .elsewhere(let reason): fail(reason, .unreachable)
            }
        }
        guard case .success(let result) = response.outcome else { return show(response, print: print, failsWhen: failsWhen) }
        return show(ControlResponse(id: response.id, outcome: .success(amend(result))), print: print, failsWhen: failsWhen)
    }

    private func show(_ response: ControlResponse, print: (JSONValue) -> String,
                      failsWhen: (JSONValue) -> Bool = { _ in false }) -> ExitStatus {
        switch response.outcome {
        case .success(let result):
            write(invocation.json ? ControlCodec.json(result) : print(result))
            return failsWhen(result) ? .failed : .ok
        case .failure(let error):
            refuse(error)
        }
    }

    /// Says the daemon's refusal (or the same refusal decided here, before asking) and exits with its status.
    private func refuse(_ error: ControlError) -> Never {
        if invocation.json { write(ControlCodec.json(.object(["error": .object(["code": .string(error.code.rawValue), "message": .string(error.message)])]))) }
        fail(error.message, Self.status(for: error.code))
    }

    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func status(for code: ControlError.Code) -> ExitStatus {
        switch code {
        case .notFound: return .notFound
        case .notPermitted: return .refused
        case .invalidArgument, .unknownCommand, .badRequest, .unsupportedVersion, .tooLong: return .usage
        case .failed, .busy: return .failed
        }
    }
}

/// A command stillroomctl does not have (its own help is the one to read, not the unknown command's).
struct UnknownCommand: Error {
    let name: String
}

/// `seek +30`, `seek -15`, `seek 4:30`, `seek 1:02:03`.
enum SeekArgument {
    static func parse(_ words: [String]) throws(UsageError) -> ControlCommand.SeekTarget {
        guard words.count == 1, let word = words.first, !word.isEmpty else { throw UsageError("seek needs +S, -S or MM:SS") }
        if word.hasPrefix("+") || word.hasPrefix("-") {
            // One sign, then digits: "+-5" or "+inf" is a typing slip, not a seek.
            guard let seconds = DecimalText.decimal(word.dropFirst()) else {
                throw UsageError("seek: \"\(word)\" is not a number of seconds")
            }
            return .by(seconds: word.hasPrefix("-") ? -seconds : seconds)
        }
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        // Hours and minutes whole, seconds may have a fraction: "1:02:03", "4:30", "4:30.5", "90".
        let numbers = parts.dropLast().map { DecimalText.wholeNumber($0).map(Double.init) } + [parts.last.flatMap { DecimalText.decimal($0) }]
        guard (1...3).contains(parts.count), numbers.allSatisfy({ $0 != nil }), numbers.dropFirst().allSatisfy({ $0! < 60 }) else {
            throw UsageError("seek: \"\(word)\" is not a time (MM:SS or H:MM:SS)")
        }
        let seconds = numbers.reduce(0) { $0 * 60 + $1! }
        return .to(seconds: seconds)
    }
}
