import Testing
import StillroomCore

/// Ids and paths come from data that may be careless or hostile; each must be refused with a reason
/// that says what is wrong (and which code point, so lookalikes are visible).
@Suite struct HostileValueTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var value: String
        var reason: String
        var testDescription: String { value.debugDescription }
    }

    static let hostileIDs: [Example] = [
        Example(value: "../etc/passwd", reason: "has the character U+002E '.' at position 1; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "/abs", reason: "has the character U+002F '/' at position 1; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "a//b", reason: "has the character U+002F '/' at position 2; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: ".hidden", reason: "has the character U+002E '.' at position 1; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "a\\b", reason: "has the character U+005C '\\' at position 2; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "a\u{0}b", reason: "has the character U+0000 at position 2; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "calm\u{1B}[31m", reason: "has the character U+001B at position 5; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "line\nbreak", reason: "has the character U+000A at position 5; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: String(repeating: "a", count: 300), reason: "is 300 characters long; at most 64 are allowed"),
        Example(value: "ste\u{430}dy-breath", reason: "has the character U+0430 'а' at position 4; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "\u{FF53}teady", reason: "has the character U+FF53 'ｓ' at position 1; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "steady\u{200B}breath", reason: "has the character U+200B at position 7; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "Steady", reason: "has the character U+0053 'S' at position 1; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "steady breath", reason: "has the character U+0020 ' ' at position 7; only a-z, 0-9 and \"-\" are allowed"),
        Example(value: "-steady", reason: "must start with a letter or a digit"),
        Example(value: "", reason: "must not be empty"),
    ]

    @Test(arguments: hostileIDs)
    func hostileIDIsRefused(_ example: Example) {
        #expect(throws: InvalidValue(example.reason)) { try ContentID(validating: example.value) }
    }

    @Test func goodIDsAreAccepted() throws {
        for text in ["steady-breath", "a", "4-7-8", String(repeating: "z", count: 64), "0day"] {
            #expect(try ContentID(validating: text).rawValue == text)
        }
    }

    static let hostilePaths: [Example] = [
        Example(value: "../etc/passwd", reason: "contains \"..\"; a path may not leave the content folder"),
        Example(value: "sessions/../../etc/passwd", reason: "contains \"..\"; a path may not leave the content folder"),
        Example(value: "/abs", reason: "is absolute; give a path relative to the content folder"),
        Example(value: "a//b", reason: "has an empty component (\"//\", or \"/\" at the end)"),
        Example(value: "sessions/", reason: "has an empty component (\"//\", or \"/\" at the end)"),
        Example(value: ".hidden", reason: "has a component starting with \".\" (\".hidden\"); hidden files are not allowed"),
        Example(value: "a/./b", reason: "has a component starting with \".\" (\".\"); hidden files are not allowed"),
        Example(value: "a\\b", reason: "contains a backslash; separate folders with \"/\""),
        Example(value: "C:\\audio.mp3", reason: "contains a backslash; separate folders with \"/\""),
        Example(value: "a/\u{0}b", reason: "contains the control character U+0000 at position 3"),
        Example(value: "audio.mp3\n", reason: "contains the control character U+000A at position 10"),
        Example(value: String(repeating: "a", count: 300), reason: "is 300 bytes long; at most 255 are allowed"),
        Example(value: String(repeating: "é", count: 128), reason: "is 256 bytes long; at most 255 are allowed"),
        Example(value: "sessions/ste\u{430}dy/audio.mp3", reason: "has the character U+0430 'а' at position 13; only A-Z, a-z, 0-9, \".\", \"_\", \"-\" and \"/\" are allowed"),
        Example(value: "sessions\u{2215}audio.mp3", reason: "has the character U+2215 '∕' at position 9; only A-Z, a-z, 0-9, \".\", \"_\", \"-\" and \"/\" are allowed"),
        Example(value: "~/audio.mp3", reason: "has the character U+007E '~' at position 1; only A-Z, a-z, 0-9, \".\", \"_\", \"-\" and \"/\" are allowed"),
        Example(value: "my audio.mp3", reason: "has the character U+0020 ' ' at position 3; only A-Z, a-z, 0-9, \".\", \"_\", \"-\" and \"/\" are allowed"),
        Example(value: "", reason: "must not be empty"),
    ]

    @Test(arguments: hostilePaths)
    func hostilePathIsRefused(_ example: Example) {
        #expect(throws: InvalidValue(example.reason)) { try RelativePath(validating: example.value) }
    }

    @Test func goodPathsAreAccepted() throws {
        for text in ["sessions/steady-breath/audio.mp3", "a", "Sounds/Chime_2.MP3", "x..y/z", String(repeating: "a", count: 255)] {
            #expect(try RelativePath(validating: text).rawValue == text)
        }
        #expect(try RelativePath(validating: "sessions/steady-breath/audio.mp3").components == ["sessions", "steady-breath", "audio.mp3"])
    }

    @Test func hostileIDInTheCatalogIsReportedByIndexAndEscaped() {
        var session = CatalogFixtures.session("steady-breath")
        session["id"] = "evil\u{1B}]0;pwned\u{7}"
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [.object(session), .object(CatalogFixtures.session("steady-breath"))]))
        #expect(result.problems.map(\.description) == [
            #"catalog.json: sessions[0]: field "id": "evil\u{001B}]0;pwned\u{0007}" has the character U+001B at position 5; only a-z, 0-9 and "-" are allowed"#,
        ])
        #expect(result.catalog.sessions.map(\.id.rawValue) == ["steady-breath"])
    }

    @Test func overLongIDIsShortenedInTheMessage() {
        var session = CatalogFixtures.session("steady-breath")
        session["id"] = .string(String(repeating: "a", count: 300))
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [.object(session)]))
        let first = result.problems.first?.description ?? ""
        #expect(first == #"catalog.json: sessions[0]: field "id": ""# + String(repeating: "a", count: 48) + #"…" is 300 characters long; at most 64 are allowed"#)
    }
}
