import ControlProtocol
import StillroomCore
import Testing

/// Every command read from a request, good arguments and bad: the typed command it becomes, and the
/// refusal (code and exact words) the daemon answers with otherwise.
@Suite struct ControlCommandDecodingTests {
    struct Good: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String: JSONValue]
        let command: ControlCommand
        var testDescription: String { "\(name) \(arguments)" }
        init(_ name: String, _ arguments: [String: JSONValue], _ command: ControlCommand) {
            self.name = name
            self.arguments = arguments
            self.command = command
        }
        init(_ name: String, _ command: ControlCommand) { self.init(name, [:], command) }
    }

    static let sweep = try! ContentID(validating: "sweep")

    static let good: [Good] = [
        Good("status", .status), Good("pause", .pause), Good("resume", .resume), Good("toggle", .toggle), Good("stop", .stop),
        Good("sessions", .sessions), Good("doctor", .doctor), Good("network", .network),
        Good("play", .play(session: nil)),
        Good("play", ["session": "sweep"], .play(session: "sweep")),
        Good("play", ["session": .null], .play(session: nil)),
        Good("seek", ["by": -15.5], .seek(.by(seconds: -15.5))),
        Good("seek", ["by": 86_400], .seek(.by(seconds: 86_400))),
        Good("seek", ["to": 0], .seek(.to(seconds: 0))),
        Good("seek", ["to": 270], .seek(.to(seconds: 270))),
        Good("seek", ["by": "soon", "to": 4], .seek(.to(seconds: 4))),
        Good("volume", ["level": 0], .volume(level: 0)),
        Good("volume", ["level": 100], .volume(level: 100)),
        Good("dismiss", .dismiss(notice: nil)),
        Good("dismiss", ["notice": 3], .dismiss(notice: 3)),
        Good("show", ["session": "sweep"], .show(session: "sweep")),
        Good("show", ["session": "../etc"], .show(session: "../etc")), // the daemon says no such session
        Good("transcript", ["session": "sweep"], .transcript(session: "sweep")),
        Good("favorite", ["session": "sweep"], .favorite(session: "sweep", add: true)),
        Good("favorite", ["session": "sweep", "action": "add"], .favorite(session: "sweep", add: true)),
        Good("favorite", ["session": "sweep", "action": "remove"], .favorite(session: "sweep", add: false)),
        Good("say", ["text": "Hello."], .say(text: "Hello.")),
        Good("say", ["text": .string(String(repeating: "é", count: 500))], .say(text: String(repeating: "é", count: 500))),
        Good("settings", .settings(change: nil)),
        Good("settings", ["key": "volume", "value": "20"], .settings(change: .init(key: "volume", value: "20"))),
        Good("history", .history(.month(nil))),
        Good("history", ["view": "month", "month": "2026-11"], .history(.month(CivilMonth(year: 2026, month: 11)))),
        Good("history", ["view": "recent"], .history(.recent)),
        Good("history", ["view": "export"], .history(.export(.json))),
        Good("history", ["view": "export", "format": "csv"], .history(.export(.csv))),
        Good("history", ["view": "delete", "run": 12], .history(.deleteRun(12))),
        Good("history", ["view": "delete", "all": true, "yes": true], .history(.deleteAll)),
        Good("downloads", .downloads(.list)),
        Good("downloads", ["action": "start", "session": "sweep"], .downloads(.start(sweep))),
        Good("downloads", ["action": "cancel", "session": "sweep"], .downloads(.cancel(sweep))),
        Good("downloads", ["action": "remove", "session": "sweep"], .downloads(.remove(sweep, confirmed: false))),
        Good("downloads", ["action": "remove", "session": "sweep", "confirmed": true], .downloads(.remove(sweep, confirmed: true))),
        Good("reminder", .reminder(.show)),
        Good("reminder", ["action": "off"], .reminder(.off)),
        Good("reminder", ["action": "set", "time": "7:05"], .reminder(.set(.init(minuteOfDay: 425)))),
        Good("reminder", ["action": "set", "time": "21:30", "days": "weekdays", "style": "glow", "quiet": "22:00-07:00"],
             .reminder(.set(.init(minuteOfDay: 1290, weekdays: .weekdays, style: .glow,
                                  quiet: .init(startMinute: 1320, endMinute: 420))))),
        Good("reminder", ["action": "set", "time": "06:00", "days": "Monday,wed"],
             .reminder(.set(.init(minuteOfDay: 360, weekdays: [.monday, .wednesday])))),
        Good("timer", .timer(.show)),
        Good("timer", ["action": "stop"], .timer(.stop)),
        Good("timer", ["action": "start"], .timer(.start(pattern: nil, minutes: nil))),
        Good("timer", ["action": "start", "pattern": "box", "minutes": 60], .timer(.start(pattern: "box", minutes: 60))),
        Good("screenshot", ["name": "stillroomctl-42.png"], .screenshot(name: "stillroomctl-42.png")),
        Good("update", .update(.status)),
        Good("update", ["action": "install", "source": "/media/stick/next.raucb"], .update(.install(source: "/media/stick/next.raucb", confirmed: false))),
        Good("update", ["action": "install", "source": "/s.raucb", "yes": true], .update(.install(source: "/s.raucb", confirmed: true))),
        Good("update", ["action": "install"], .update(.install(source: "", confirmed: false))), // the daemon says what a source is
    ]

    @Test(arguments: good)
    func aGoodRequestBecomesItsCommand(_ good: Good) throws {
        let command = try ControlCommand.decode(ControlRequest(id: 1, command: good.name, arguments: good.arguments)).get()
        #expect(command == good.command)
        #expect(command.name == good.name)
    }

    @Test(arguments: good)
    func aCommandReadsBackFromItsOwnEncoding(_ good: Good) throws {
        let line = ControlCodec.encode(ControlRequest(id: 9, good.command))
        let request = try ControlCodec.decodeRequest(Array(line.dropLast())).get()
        #expect(request.id == 9)
        #expect(try ControlCommand.decode(request).get() == good.command)
    }

    static let screenshotName = "screenshot needs a file name ending in .png (letters, digits, - and _; no folder): the daemon writes only into its own screenshot folder"

    struct Bad: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String: JSONValue]
        let code: ControlError.Code
        let message: String
        var testDescription: String { "\(name) \(arguments)" }
        init(_ name: String, _ arguments: [String: JSONValue], _ message: String, code: ControlError.Code = .invalidArgument) {
            self.name = name
            self.arguments = arguments
            self.code = code
            self.message = message
        }
    }

    static let seekNeeds = "seek needs \"by\" (seconds, + or -) or \"to\" (seconds from the start)"
    static let seekBy = "seek by at most 86400 seconds either way"
    static let seekTo = "seek to a place from 0 to 86400 seconds"
    static let volume = "volume needs a level from 0 to 100"
    static let session = "a session id is needed; see stillroomctl sessions"
    static let timer = "a timer takes a pattern (4-4, 4-7-8, box, 4-6) and 1 to 60 minutes"

    static let bad: [Bad] = [
        Bad("reboot", [:], "unknown command \"reboot\"; see stillroomctl --help", code: .unknownCommand),
        // A socket client that skips the CLI still has to say yes to lose the whole history.
        Bad("history", ["view": "delete", "all": true],
            "deleting the whole history needs \"yes\": true (stillroomctl history delete --all --yes)"),
        Bad("history", ["view": "delete", "all": true, "yes": false],
            "deleting the whole history needs \"yes\": true (stillroomctl history delete --all --yes)"),
        Bad("Status", [:], "unknown command \"Status\"; see stillroomctl --help", code: .unknownCommand),
        Bad("play", ["session": 5], "play: \"session\" takes a string, got a number"),
        Bad("seek", [:], seekNeeds),
        Bad("seek", ["by": "soon"], seekNeeds),
        Bad("seek", ["to": "4:30"], seekNeeds),
        Bad("seek", ["by": 1e15], seekBy),
        Bad("seek", ["by": -1e300], seekBy),
        Bad("seek", ["by": 86_401], seekBy),
        Bad("seek", ["to": 1e15], seekTo),
        Bad("seek", ["to": -5], seekTo),
        Bad("volume", [:], volume),
        Bad("volume", ["level": 101], volume),
        Bad("volume", ["level": -1], volume),
        Bad("volume", ["level": 2.5], volume),
        Bad("volume", ["level": 1e300], volume),
        Bad("volume", ["level": "50"], volume),
        Bad("dismiss", ["notice": -9e18], "dismiss takes a notice number; see stillroomctl status"),
        Bad("dismiss", ["notice": "1"], "dismiss takes a notice number; see stillroomctl status"),
        Bad("show", [:], session),
        Bad("transcript", [:], session),
        Bad("favorite", [:], session),
        Bad("favorite", ["session": "sweep", "action": "bogus"], "unknown favorite action \"bogus\"; use add or remove"),
        Bad("say", [:], "say needs a text of 1 to 500 characters"),
        Bad("say", ["text": ""], "say needs a text of 1 to 500 characters"),
        Bad("say", ["text": .string(String(repeating: "a", count: 501))], "say needs a text of 1 to 500 characters"),
        Bad("settings", ["key": "volume"], "settings set needs a KEY and a VALUE"),
        Bad("settings", ["key": "volume", "value": 20], "settings: \"value\" takes a string, got a number"),
        Bad("history", ["view": "bogus"], "unknown history view \"bogus\""),
        Bad("history", ["month": "2026-13"], "--month takes YYYY-MM (a year from 1970, a month from 01 to 12), got \"2026-13\""),
        Bad("history", ["month": "0000-01"], "--month takes YYYY-MM (a year from 1970, a month from 01 to 12), got \"0000-01\""),
        Bad("history", ["view": "export", "format": "xml"], "--format takes json or csv, got \"xml\""),
        Bad("history", ["view": "delete"], "say which: --run ID, or --all --yes"),
        Bad("history", ["view": "delete", "run": 9e18], "say which: --run ID, or --all --yes"),
        Bad("history", ["view": "delete", "all": "yes"], "say which: --run ID, or --all --yes"),
        Bad("downloads", ["action": "start"], session),
        Bad("downloads", ["action": "start", "session": "../etc"], session),
        Bad("downloads", ["action": "bogus", "session": "sweep"], "unknown download action \"bogus\""),
        Bad("reminder", ["action": "bogus"], "unknown reminder action \"bogus\""),
        Bad("reminder", ["action": "set"], "reminder set takes a time as HH:MM (24-hour)"),
        Bad("reminder", ["action": "set", "time": "25:00"], "reminder set takes a time as HH:MM (24-hour)"),
        Bad("reminder", ["action": "set", "time": "21:00", "days": "someday"],
            "--days takes names like mon,tue,wed (or all, weekdays, weekends), got \"someday\""),
        Bad("reminder", ["action": "set", "time": "21:00", "days": ""],
            "--days takes names like mon,tue,wed (or all, weekdays, weekends), got \"\""),
        Bad("reminder", ["action": "set", "time": "21:00", "style": "loud"], "--style takes chime or glow, got \"loud\""),
        Bad("reminder", ["action": "set", "time": "21:00", "quiet": "-"], "--quiet takes HH:MM-HH:MM, got \"-\""),
        Bad("reminder", ["action": "set", "time": "21:00", "quiet": "25:00-01:00"], "--quiet takes HH:MM-HH:MM, got \"25:00-01:00\""),
        Bad("timer", ["action": "bogus"], "unknown timer action \"bogus\""),
        Bad("timer", ["action": "start", "pattern": "nope"], timer),
        Bad("timer", ["action": "start", "minutes": 0], timer),
        Bad("timer", ["action": "start", "minutes": 61], timer),
        Bad("timer", ["action": "start", "minutes": 1e15], timer),
        Bad("timer", ["action": "start", "minutes": "5"], timer),
        Bad("screenshot", [:], Self.screenshotName),
        // A path, as clients sent before: the daemon writes only into its own folder.
        Bad("screenshot", ["path": "/tmp/screen.png"], Self.screenshotName),
        Bad("screenshot", ["name": "/var/lib/stillroom/stillroomd/stillroom.png"], Self.screenshotName),
        Bad("screenshot", ["name": "../stillroom.png"], Self.screenshotName),
        Bad("screenshot", ["name": ".png"], Self.screenshotName),
        Bad("screenshot", ["name": "screen.jpg"], Self.screenshotName),
        Bad("screenshot", ["name": .string(String(repeating: "a", count: 65) + ".png")], Self.screenshotName),
        Bad("update", ["action": "bogus"], "unknown update action \"bogus\"; use install or status"),
        Bad("update", ["action": ["install"]], "update: \"action\" takes a string, got an array"),
    ]

    @Test(arguments: bad)
    func aBadRequestIsRefusedWithWordsThatSayWhatItTakes(_ bad: Bad) {
        let result = ControlCommand.decode(ControlRequest(id: 1, command: bad.name, arguments: bad.arguments))
        #expect(result == .failure(ControlError(bad.code, bad.message)))
    }

    @Test func startingCommandsAreTheOnesAnUpdateHoldsBack() {
        let starting: [ControlCommand] = [.play(session: nil), .resume, .toggle, .timer(.start(pattern: nil, minutes: nil))]
        let others: [ControlCommand] = [.status, .pause, .stop, .timer(.show), .timer(.stop), .sessions, .update(.status)]
        #expect(starting.allSatisfy { $0.startsPractice })
        #expect(!others.contains { $0.startsPractice })
    }
}
