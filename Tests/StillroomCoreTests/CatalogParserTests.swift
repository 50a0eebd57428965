import FoundationEssentials
import Testing
import StillroomCore

@Suite struct CatalogParserTests {
    @Test func realisticCatalogLoadsEverySessionAndSoundWithoutProblems() throws {
        let result = CatalogParser.parseCatalog(Data(CatalogFixtures.realisticCatalog.utf8), fileName: "catalog.json")
        #expect(result.problems == [])
        let catalog = result.catalog
        #expect(catalog.sessions.map(\.id.rawValue) == [
            "steady-breath", "box-breathing", "long-exhale", "desk-reset", "single-point", "body-scan", "let-the-day-go",
        ])
        #expect(catalog.sessions.map(\.theme) == [.breathe, .breathe, .breathe, .focus, .focus, .unwind, .unwind])
        #expect(catalog.sounds.map(\.id.rawValue) == ["chime", "tick"])
        #expect(catalog.defaultSessionID?.rawValue == "steady-breath")
        #expect(catalog.firstBootSession?.id.rawValue == "steady-breath")
    }

    @Test func bundledSessionKeepsEveryField() throws {
        let catalog = CatalogParser.parseCatalog(Data(CatalogFixtures.realisticCatalog.utf8), fileName: "catalog.json").catalog
        let expected = Session(
            id: try ContentID(validating: "steady-breath"),
            title: "Steady breath",
            theme: .breathe,
            description: "Five minutes of slow, even breathing, counted gently in and out.",
            durationSeconds: 301.46,
            audio: .bundled(try RelativePath(validating: "sessions/steady-breath/audio.mp3")),
            transcript: .bundled(try RelativePath(validating: "sessions/steady-breath/transcript.vtt")),
            breathCues: .bundled(try RelativePath(validating: "sessions/steady-breath/breath.json")),
            license: License(name: "CC BY 4.0", attribution: "Stillroom project",
                             url: try RemoteURL(parsing: "https://creativecommons.org/licenses/by/4.0/")),
            provenance: .bundled(try RelativePath(validating: "sessions/steady-breath/provenance.json")))
        #expect(catalog.sessions.first == expected)
    }

    @Test func remoteSessionKeepsURLSizeAndDigest() throws {
        let catalog = CatalogParser.parseCatalog(Data(CatalogFixtures.realisticCatalog.utf8), fileName: "catalog.json").catalog
        let session = try #require(catalog.session(withID: try ContentID(validating: "single-point")))
        guard case .remote(let remote) = session.audio else {
            Issue.record("expected a remote source, got \(session.audio)")
            return
        }
        #expect(remote.url.description == "https://content.stillroom.example:8443/sessions/single-point.mp3?v=2")
        #expect(remote.byteCount == 14_400_500)
        #expect(remote.sha256.hex == CatalogFixtures.digestB)
        #expect(session.breathCues == nil)
        #expect(session.license.url == nil)
    }

    @Test func bytesAndDataGiveTheSameResult() {
        let text = CatalogFixtures.realisticCatalog
        #expect(CatalogParser.parseCatalog(Array(text.utf8), fileName: "c.json") == CatalogParser.parseCatalog(Data(text.utf8), fileName: "c.json"))
    }

    @Test func nullForAnOptionalFieldMeansAbsent() {
        var session = CatalogFixtures.session("steady-breath")
        session["breathCues"] = .null
        session["license"] = ["name": "CC0 1.0", "attribution": "Stillroom project", "url": nil]
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [.object(session)]))
        #expect(result.problems == [])
        #expect(result.catalog.sessions.first?.breathCues == nil)
    }

    @Test func oneBadEntryAmongGoodOnesCostsOnlyItself() {
        var bad = CatalogFixtures.session("evening-rain", theme: "sleep")
        bad["durationSeconds"] = 0
        let document = CatalogFixtures.catalog(sessions: [
            .object(CatalogFixtures.session("steady-breath")),
            .object(bad),
            .object(CatalogFixtures.session("desk-reset", theme: "focus")),
        ])
        let result = CatalogFixtures.parse(document)
        #expect(result.catalog.sessions.map(\.id.rawValue) == ["steady-breath", "desk-reset"])
        #expect(result.problems.map(\.description) == [
            #"catalog.json: session "evening-rain": field "theme": expected one of breathe, focus, unwind, got "sleep""#,
            #"catalog.json: session "evening-rain": field "durationSeconds": must be more than 0 and at most 3600 seconds, got 0"#,
        ])
        #expect(result.catalog.defaultSessionID?.rawValue == "steady-breath")
    }

    @Test func everyProblemOfAnEntryIsReportedAtOnce() {
        let entry: JSONValue = ["id": "../x", "title": "", "theme": "calm"]
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [entry, .object(CatalogFixtures.session("steady-breath"))]))
        #expect(result.problems.map(\.description) == [
            #"catalog.json: sessions[0]: field "id": "../x" has the character U+002E '.' at position 1; only a-z, 0-9 and "-" are allowed"#,
            #"catalog.json: sessions[0]: field "title": must not be empty or blank"#,
            #"catalog.json: sessions[0]: field "theme": expected one of breathe, focus, unwind, got "calm""#,
            #"catalog.json: sessions[0]: field "description": is required but missing"#,
            #"catalog.json: sessions[0]: field "durationSeconds": is required but missing"#,
            #"catalog.json: sessions[0]: field "audio": is required but missing (or give "remote" for a download)"#,
            #"catalog.json: sessions[0]: field "transcript": is required but missing"#,
            #"catalog.json: sessions[0]: field "license": is required but missing"#,
            #"catalog.json: sessions[0]: field "provenance": is required but missing"#,
        ])
        #expect(result.catalog.sessions.count == 1)
    }

    @Test func sessionThatIsNotAnObjectIsReportedByIndex() {
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: ["steady-breath", .object(CatalogFixtures.session("steady-breath"))]))
        #expect(result.problems.map(\.description) == [#"catalog.json: sessions[0]: expected an object, got "steady-breath""#])
        #expect(result.catalog.sessions.count == 1)
    }

    @Test func duplicateIdsKeepTheFirstAndReportTheRest() {
        var second = CatalogFixtures.session("steady-breath")
        second["title"] = "Impostor"
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [
            .object(CatalogFixtures.session("steady-breath")), .object(CatalogFixtures.session("desk-reset")), .object(second),
        ]))
        #expect(result.catalog.sessions.map(\.id.rawValue) == ["steady-breath", "desk-reset"])
        #expect(result.catalog.sessions.first?.title == "A session")
        #expect(result.problems.map(\.description) == [
            #"catalog.json: sessions[2]: field "id": "steady-breath" is already used by an earlier entry in "sessions"; this one is skipped"#,
        ])
    }

    @Test func duplicateSoundIdsAreReported() {
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(
            sessions: [.object(CatalogFixtures.session("steady-breath"))], sounds: [CatalogFixtures.chime, CatalogFixtures.chime]))
        #expect(result.catalog.sounds.count == 1)
        #expect(result.problems.map(\.description) == [
            #"catalog.json: sounds[1]: field "id": "chime" is already used by an earlier entry in "sounds"; this one is skipped"#,
        ])
    }

    @Test func badSoundIsReportedAndSkipped() {
        let badSound: JSONValue = ["id": "tick", "audio": "/usr/share/sounds/tick.mp3", "license": ["name": "CC0 1.0", "attribution": "x"], "provenance": "sounds/tick.json"]
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(
            sessions: [.object(CatalogFixtures.session("steady-breath"))], sounds: [CatalogFixtures.chime, badSound]))
        #expect(result.catalog.sounds.map(\.id.rawValue) == ["chime"])
        #expect(result.problems.map(\.description) == [
            #"catalog.json: sound "tick": field "audio": "/usr/share/sounds/tick.mp3" is absolute; give a path relative to the content folder"#,
        ])
    }
}
