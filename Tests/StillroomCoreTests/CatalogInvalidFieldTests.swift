import Testing
import StillroomCore

/// One bad field per case, in a catalog whose other session is good: the bad session is skipped and
/// exactly one precise problem names it.
@Suite struct CatalogInvalidFieldTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var change: @Sendable (inout [String: JSONValue]) -> Void
        var expected: String
        var testDescription: String { name }
    }

    static let prefix = #"catalog.json: session "steady-breath": "#

    static let cases: [Case] = [
        Case(name: "unknown theme", change: { $0["theme"] = "sleep" },
             expected: #"field "theme": expected one of breathe, focus, unwind, got "sleep""#),
        Case(name: "theme as a number", change: { $0["theme"] = 3 },
             expected: #"field "theme": expected one of breathe, focus, unwind, got 3"#),
        Case(name: "theme in capitals", change: { $0["theme"] = "Breathe" },
             expected: #"field "theme": expected one of breathe, focus, unwind, got "Breathe""#),
        Case(name: "missing title", change: { $0["title"] = nil },
             expected: #"field "title": is required but missing"#),
        Case(name: "null title", change: { $0["title"] = .null },
             expected: #"field "title": expected a string, got null"#),
        Case(name: "title as a number", change: { $0["title"] = 12 },
             expected: #"field "title": expected a string, got 12"#),
        Case(name: "empty title", change: { $0["title"] = "" },
             expected: #"field "title": must not be empty or blank"#),
        Case(name: "blank title", change: { $0["title"] = "   " },
             expected: #"field "title": must not be empty or blank"#),
        Case(name: "title over 80 characters", change: { $0["title"] = .string(String(repeating: "é", count: 81)) },
             expected: #"field "title": is 81 characters long; at most 80 are allowed"#),
        Case(name: "title with a line break", change: { $0["title"] = "Steady\nbreath" },
             expected: #"field "title": contains the control character U+000A at position 7"#),
        Case(name: "description over 600 characters", change: { $0["description"] = .string(String(repeating: "a", count: 601)) },
             expected: #"field "description": is 601 characters long; at most 600 are allowed"#),
        Case(name: "description with a tab", change: { $0["description"] = "Breathe\tin" },
             expected: #"field "description": contains the control character U+0009 at position 8"#),
        Case(name: "description with an escape sequence", change: { $0["description"] = "\u{1B}[2J" },
             expected: #"field "description": contains the control character U+001B at position 1"#),
        Case(name: "zero duration", change: { $0["durationSeconds"] = 0 },
             expected: #"field "durationSeconds": must be more than 0 and at most 3600 seconds, got 0"#),
        Case(name: "negative duration", change: { $0["durationSeconds"] = -5.5 },
             expected: #"field "durationSeconds": must be more than 0 and at most 3600 seconds, got -5.5"#),
        Case(name: "duration over an hour", change: { $0["durationSeconds"] = 3600.5 },
             expected: #"field "durationSeconds": must be more than 0 and at most 3600 seconds, got 3600.5"#),
        Case(name: "duration as a string", change: { $0["durationSeconds"] = "300" },
             expected: #"field "durationSeconds": expected a number, got "300""#),
        Case(name: "missing duration", change: { $0["durationSeconds"] = nil },
             expected: #"field "durationSeconds": is required but missing"#),
        Case(name: "neither audio nor remote", change: { $0["audio"] = nil },
             expected: #"field "audio": is required but missing (or give "remote" for a download)"#),
        Case(name: "both audio and remote", change: { $0["remote"] = ["url": "https://a.example/x.mp3", "bytes": 1, "sha256": .string(CatalogFixtures.digestA)] },
             expected: #"field "audio": give either "audio" (a bundled file) or "remote" (a download), not both"#),
        Case(name: "audio climbing out", change: { $0["audio"] = "../etc/passwd" },
             expected: #"field "audio": "../etc/passwd" contains ".."; a path may not leave the content folder"#),
        Case(name: "audio as an array", change: { $0["audio"] = ["a.mp3"] },
             expected: #"field "audio": expected a string, got an array"#),
        Case(name: "absolute transcript", change: { $0["transcript"] = "/abs/t.vtt" },
             expected: #"field "transcript": "/abs/t.vtt" is absolute; give a path relative to the content folder"#),
        Case(name: "missing transcript", change: { $0["transcript"] = nil },
             expected: #"field "transcript": is required but missing"#),
        Case(name: "hidden breath cues", change: { $0["breathCues"] = "sessions/.cues/breath.json" },
             expected: #"field "breathCues": "sessions/.cues/breath.json" has a component starting with "." (".cues"); hidden files are not allowed"#),
        Case(name: "provenance with a backslash", change: { $0["provenance"] = #"sessions\p.json"# },
             expected: #"field "provenance": "sessions\\p.json" contains a backslash; separate folders with "/""#),
        Case(name: "license as a string", change: { $0["license"] = "CC BY 4.0" },
             expected: #"field "license": expected an object, got "CC BY 4.0""#),
        Case(name: "license without a name", change: { $0["license"] = ["attribution": "Stillroom project"] },
             expected: #"field "license.name": is required but missing"#),
        Case(name: "license with an empty attribution", change: { $0["license"] = ["name": "CC0 1.0", "attribution": ""] },
             expected: #"field "license.attribution": must not be empty or blank"#),
        Case(name: "license URL with another scheme", change: { $0["license"] = ["name": "CC0 1.0", "attribution": "x", "url": "ftp://licenses.example/cc0"] },
             expected: #"field "license.url": "ftp://licenses.example/cc0" uses the scheme "ftp"; only https (and http to this box itself) are supported"#),
    ]

    @Test(arguments: cases)
    func badFieldSkipsTheSessionWithOnePreciseProblem(_ example: Case) {
        var bad = CatalogFixtures.session("steady-breath")
        example.change(&bad)
        let document = CatalogFixtures.catalog(
            sessions: [.object(bad), .object(CatalogFixtures.session("desk-reset", theme: "focus"))],
            defaultSession: "desk-reset")
        let result = CatalogFixtures.parse(document)
        #expect(result.problems.map(\.description) == [Self.prefix + example.expected])
        #expect(result.catalog.sessions.map(\.id.rawValue) == ["desk-reset"])
    }

    static let remoteCases: [Case] = [
        Case(name: "plain http to a remote host", change: { $0["url"] = "http://content.example/a.mp3" },
             expected: #"field "remote.url": "http://content.example/a.mp3" uses plain http to "content.example"; downloads need https (http only for 127.0.0.1, ::1 or localhost)"#),
        Case(name: "relative URL in the catalog", change: { $0["url"] = "sessions/a.mp3" },
             expected: #"field "remote.url": "sessions/a.mp3" is not an absolute URL (expected https://host/path)"#),
        Case(name: "credentials in the URL", change: { $0["url"] = "https://user:pw@content.example/a.mp3" },
             expected: #"field "remote.url": "https://user:pw@content.example/a.mp3" contains user credentials ("…@"), which are not allowed"#),
        Case(name: "missing URL", change: { $0["url"] = nil },
             expected: #"field "remote.url": is required but missing"#),
        Case(name: "zero bytes", change: { $0["bytes"] = 0 },
             expected: #"field "remote.bytes": expected a whole number of bytes greater than 0, got 0"#),
        Case(name: "negative bytes", change: { $0["bytes"] = -1 },
             expected: #"field "remote.bytes": expected a whole number of bytes greater than 0, got -1"#),
        Case(name: "fractional bytes", change: { $0["bytes"] = 12.5 },
             expected: #"field "remote.bytes": expected a whole number of bytes greater than 0, got 12.5"#),
        Case(name: "bytes as a string", change: { $0["bytes"] = "1000" },
             expected: #"field "remote.bytes": expected a whole number of bytes greater than 0, got "1000""#),
        Case(name: "upper-case digest", change: { $0["sha256"] = .string(CatalogFixtures.digestA.uppercased()) },
             expected: #"field "remote.sha256": ""# + CatalogFixtures.digestA.uppercased().prefix(48)
                + #"…" has the character U+0041 'A' at position 11, which is not a lowercase hex digit (use lowercase)"#),
        Case(name: "short digest", change: { $0["sha256"] = .string(String(CatalogFixtures.digestA.dropLast())) },
             expected: #"field "remote.sha256": ""# + CatalogFixtures.digestA.prefix(48)
                + #"…" is 63 characters long; a SHA-256 digest is 64 lowercase hex digits"#),
        Case(name: "non-hex digest", change: { $0["sha256"] = .string(String(repeating: "g", count: 64)) },
             expected: #"field "remote.sha256": ""# + String(repeating: "g", count: 48)
                + #"…" has the character U+0067 'g' at position 1, which is not a lowercase hex digit"#),
    ]

    @Test(arguments: remoteCases)
    func badRemoteFieldSkipsTheSession(_ example: Case) {
        var session = CatalogFixtures.remoteSession("steady-breath")
        guard case .object(var remote)? = session["remote"] else {
            Issue.record("fixture has no remote object")
            return
        }
        example.change(&remote)
        session["remote"] = .object(remote)
        let document = CatalogFixtures.catalog(
            sessions: [.object(session), .object(CatalogFixtures.session("desk-reset"))], defaultSession: "desk-reset")
        let result = CatalogFixtures.parse(document)
        #expect(result.problems.map(\.description) == [Self.prefix + example.expected])
        #expect(result.catalog.sessions.map(\.id.rawValue) == ["desk-reset"])
    }

    @Test func loopbackHTTPIsAcceptedForDownloads() {
        var session = CatalogFixtures.remoteSession("steady-breath")
        session["remote"] = ["url": "http://127.0.0.1:8080/a.mp3", "bytes": 10, "sha256": .string(CatalogFixtures.digestA)]
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [.object(session), .object(CatalogFixtures.session("desk-reset"))], defaultSession: "desk-reset"))
        #expect(result.problems == [])
        #expect(result.catalog.sessions.count == 2)
    }
}
