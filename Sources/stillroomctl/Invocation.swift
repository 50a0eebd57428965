import StillroomCore

/// The parsed command line: global options, the command, its words and its flags.
struct Invocation {
    var socketPath = "/run/stillroom/control.sock"
    var dataDirectory = "/var/lib/stillroom/stillroomd"
    var contentDirectory = "/usr/share/stillroom/content"
    /// wpa_supplicant's control sockets (`network`, doctor's network line).
    var wifiControlDirectory = "/run/stillroom-wifi"
    /// How long to wait for the daemon's answer, in seconds (`--wait`).
    var answerWaitSeconds = Invocation.defaultAnswerWaitSeconds
    static let defaultAnswerWaitSeconds = 30
    static let answerWaitRange = 1...3600
    var json = false
    var help = false
    var command: String?
    /// Positional words after the command.
    var words: [String] = []
    /// `--name value` and `--name` flags after the command (value "" for a bare flag).
    var flags: [String: String] = [:]

    /// Flags that take no value.
    static let bareFlags: Set<String> = ["--json", "--help", "-h", "--favorites", "--offline", "--yes", "--all", "--recent", "--essential", "--no-wait", "--allow-downgrade"]

    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var invocation = Invocation()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inline { return inline }
                guard let next = remaining.popFirst() else { throw UsageError("\(name) needs a value") }
                return next
            }
            switch name {
            case "--socket": invocation.socketPath = try value()
            case "--data-dir": invocation.dataDirectory = try value()
            case "--content-dir": invocation.contentDirectory = try value()
            case "--wifi-control": invocation.wifiControlDirectory = try value()
            case "--wait":
                let text = try value()
                guard let seconds = DecimalText.wholeNumber(text), answerWaitRange.contains(seconds) else {
                    throw UsageError("--wait takes whole seconds from \(answerWaitRange.lowerBound) to \(answerWaitRange.upperBound), not \"\(text)\"")
                }
                invocation.answerWaitSeconds = seconds
            case "--json": invocation.json = true
            case "--help", "-h": invocation.help = true
            default:
                if name.hasPrefix("-") && name.count > 1 && !(name.dropFirst().first?.isNumber ?? false) {
                    guard invocation.command != nil else { throw UsageError("unknown option \"\(argument)\"") }
                    invocation.flags[name] = bareFlags.contains(name) ? "" : try value()
                } else if invocation.command == nil {
                    invocation.command = argument
                } else {
                    invocation.words.append(argument)
                }
            }
        }
        return invocation
    }
}

/// A wrong command line: the message, printed with a hint, exit status 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
