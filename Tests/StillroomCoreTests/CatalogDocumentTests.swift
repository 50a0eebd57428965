import FoundationEssentials
import Testing
import TestSupport
import StillroomCore

/// Problems with the catalog as a whole: unreadable JSON, the wrong shape, an unknown schema, and the
/// top-level fields (`sessions`, `sounds`, `defaultSession`).
@Suite struct CatalogDocumentTests {
    private func parse(_ text: String) -> CatalogParseResult {
        CatalogParser.parseCatalog(Array(text.utf8), fileName: "catalog.json")
    }

    @Test func malformedJSONIsOneProblemWithItsPositionAndAnEmptyCatalog() {
        let result = parse("{\n  \"schema\": 1,\n  \"sessions\": [\n    {\"id\": \"a\" \"title\": \"b\"}\n  ]\n}\n")
        #expect(result.catalog == .empty)
        #expect(result.problems.map(\.description) == [
            "catalog.json: malformed JSON at line 4, column 16: expected ',' or '}', found '\"'",
        ])
    }

    @Test func emptyFileIsMalformedJSON() {
        let result = parse("")
        #expect(result.catalog == .empty)
        #expect(result.problems.map(\.description) == ["catalog.json: malformed JSON at line 1, column 1: unexpected end of input"])
    }

    @Test func binaryGarbageIsMalformedJSON() {
        let result = CatalogParser.parseCatalog([0xFF, 0xFE, 0x00, 0x01], fileName: "catalog.json")
        #expect(result.catalog == .empty)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.description.hasPrefix("catalog.json: malformed JSON at line 1, column 1:") == true)
    }

    @Test(arguments: [
        ("[]", "an array"),
        ("\"catalog\"", "\"catalog\""),
        ("42", "42"),
        ("null", "null"),
    ])
    func wrongTopLevelTypeIsOneProblem(_ text: String, _ got: String) {
        let result = parse(text)
        #expect(result.catalog == .empty)
        #expect(result.problems.map(\.description) == ["catalog.json: expected a JSON object at the top level, got \(got)"])
    }

    @Test(arguments: [
        (#"{"schema": 2, "sessions": []}"#, #"catalog.json: field "schema": unsupported schema version 2; this firmware reads version 1"#),
        (#"{"schema": 0, "sessions": []}"#, #"catalog.json: field "schema": unsupported schema version 0; this firmware reads version 1"#),
        (#"{"schema": "1", "sessions": []}"#, #"catalog.json: field "schema": expected the whole number 1, got "1""#),
        (#"{"schema": 1.5, "sessions": []}"#, #"catalog.json: field "schema": expected the whole number 1, got 1.5"#),
        (#"{"sessions": []}"#, #"catalog.json: field "schema": is required but missing"#),
    ])
    func unknownOrMissingSchemaStopsWithAnEmptyCatalog(_ text: String, _ expected: String) {
        let result = parse(text)
        #expect(result.catalog == .empty)
        #expect(result.problems.map(\.description) == [expected])
    }

    @Test func schemaTwoIsRefusedEvenWhenItsSessionsLookValid() {
        var document = CatalogFixtures.catalog(sessions: [.object(CatalogFixtures.session("steady-breath"))])
        if case .object(var members) = document {
            members["schema"] = 2
            document = .object(members)
        }
        let result = CatalogFixtures.parse(document)
        #expect(result.catalog.sessions.isEmpty)
        #expect(result.problems.count == 1)
    }

    @Test func missingSessionsListIsReported() {
        let result = CatalogFixtures.parse(["schema": 1, "defaultSession": "steady-breath", "sounds": [CatalogFixtures.chime]])
        #expect(result.catalog.sessions.isEmpty)
        #expect(result.catalog.sounds.count == 1)
        #expect(result.problems.map(\.description) == [
            #"catalog.json: field "sessions": is required but missing"#,
            #"catalog.json: field "defaultSession": names session "steady-breath", which is not in the catalog"#,
        ])
    }

    @Test func sessionsThatAreNotAListAreReported() {
        let result = CatalogFixtures.parse(["schema": 1, "sessions": ["steady-breath": "x"], "defaultSession": "steady-breath", "sounds": []])
        #expect(result.problems.map(\.description) == [
            #"catalog.json: field "sessions": expected an array, got an object"#,
            #"catalog.json: field "defaultSession": names session "steady-breath", which is not in the catalog"#,
        ])
    }

    @Test func emptySessionsListIsReported() {
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [], defaultSession: nil))
        #expect(result.problems.map(\.description) == [
            #"catalog.json: field "sessions": lists no sessions"#,
            #"catalog.json: field "defaultSession": is required but missing"#,
        ])
    }

    @Test func missingSoundsAreReportedButSessionsStillLoad() {
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [.object(CatalogFixtures.session("steady-breath"))], sounds: nil))
        #expect(result.catalog.sessions.count == 1)
        #expect(result.problems.map(\.description) == [#"catalog.json: field "sounds": is required but missing"#])
    }

    @Test func missingDefaultSessionIsReportedAndFirstBootFallsBackToABundledBreathingSession() {
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(
            sessions: [
                .object(CatalogFixtures.remoteSession("long-exhale")),
                .object(CatalogFixtures.session("desk-reset", theme: "focus")),
                .object(CatalogFixtures.session("steady-breath")),
            ],
            defaultSession: nil))
        #expect(result.problems.map(\.description) == [#"catalog.json: field "defaultSession": is required but missing"#])
        #expect(result.catalog.defaultSessionID == nil)
        #expect(result.catalog.firstBootSession?.id.rawValue == "steady-breath")
    }

    @Test func defaultSessionNamingADownloadIsRefused() {
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(
            sessions: [.object(CatalogFixtures.remoteSession("long-exhale")), .object(CatalogFixtures.session("desk-reset", theme: "focus"))],
            defaultSession: "long-exhale"))
        #expect(result.problems.map(\.description) == [
            #"catalog.json: field "defaultSession": names session "long-exhale", which is a download; the first-boot session must be bundled"#,
        ])
        #expect(result.catalog.defaultSessionID == nil)
        #expect(result.catalog.firstBootSession?.id.rawValue == "desk-reset")
    }

    @Test func defaultSessionNamingASkippedSessionSaysSo() {
        var bad = CatalogFixtures.session("steady-breath")
        bad["theme"] = "sleep"
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [.object(bad)]))
        #expect(result.problems.map(\.description) == [
            #"catalog.json: session "steady-breath": field "theme": expected one of breathe, focus, unwind, got "sleep""#,
            #"catalog.json: field "defaultSession": names session "steady-breath", which was skipped because of its problems"#,
        ])
        #expect(result.catalog.firstBootSession == nil)
    }

    @Test func defaultSessionWithAnInvalidIdIsReported() {
        let result = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [.object(CatalogFixtures.session("steady-breath"))], defaultSession: "../x"))
        #expect(result.problems.map(\.description) == [
            #"catalog.json: field "defaultSession": "../x" has the character U+002E '.' at position 1; only a-z, 0-9 and "-" are allowed"#,
        ])
        #expect(result.catalog.firstBootSession?.id.rawValue == "steady-breath")
    }

    @Test func fileNameInProblemsIsTheOneGiven() {
        let result = CatalogParser.parseCatalog(Array("[]".utf8), fileName: "/usr/share/stillroom/Content/catalog.json")
        #expect(result.problems.first?.fileName == "/usr/share/stillroom/Content/catalog.json")
    }

    /// The shipped catalog (from the content generator) must load cleanly. It is in the tree, so its
    /// absence is a counted skip locally (a half checkout) and a failure under CI.
    @Test func shippedCatalogHasNoProblems() throws {
        guard Requirement.need(FileManager.default.fileExists(atPath: BundledContent.catalogPath),
                               "no shipped catalog at \(BundledContent.catalogPath)") else { return }
        let data = try Data(contentsOf: URL(filePath: BundledContent.catalogPath))
        let result = CatalogParser.parseCatalog(data, fileName: "Content/catalog.json")
        #expect(result.problems.map(\.description) == [])
        #expect(result.catalog.firstBootSession != nil)
    }
}
