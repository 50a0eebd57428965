import Testing
import StillroomCore

/// The remote manifest: the catalog's shape, downloads only, references relative to the manifest's URL.
@Suite struct ManifestParserTests {
    static let manifestText = #"""
    {
      "schema": 1,
      "sessions": [
        {
          "id": "steady-rain",
          "title": "Steady rain",
          "theme": "unwind",
          "description": "Rain on a roof, with a few words to settle by.",
          "durationSeconds": 612.5,
          "remote": { "url": "steady-rain/audio.mp3", "bytes": 9800000, "sha256": "\#(CatalogFixtures.digestA)" },
          "transcript": "steady-rain/transcript.vtt",
          "breathCues": "steady-rain/breath.json",
          "license": { "name": "CC BY 4.0", "attribution": "Stillroom project" },
          "provenance": "steady-rain/provenance.json",
          "sideFileSha256": { "transcript": "\#(CatalogFixtures.digestB)", "provenance": "\#(CatalogFixtures.digestA)" }
        },
        {
          "id": "mirror-focus",
          "title": "Mirrored focus",
          "theme": "focus",
          "description": "Hosted on a mirror; every reference is absolute.",
          "durationSeconds": 300,
          "remote": { "url": "https://mirror.example/focus.mp3", "bytes": 4800000, "sha256": "\#(CatalogFixtures.digestB)" },
          "transcript": "/shared/focus.vtt",
          "license": { "name": "CC0 1.0", "attribution": "Stillroom project" },
          "provenance": "../provenance/focus.json"
        }
      ]
    }
    """#

    static let manifestURL = try! RemoteURL(parsing: "https://content.stillroom.example/remote/manifest.json")

    @Test func sideFileDigestsAreReadAndABadOneIsReported() throws {
        let result = CatalogParser.parseManifest(Array(Self.manifestText.utf8), fileName: "manifest.json", manifestURL: Self.manifestURL)
        let rain = try #require(result.catalog.sessions.first)
        #expect(rain.sideFileDigests.mapValues(\.hex) == ["transcript": CatalogFixtures.digestB, "provenance": CatalogFixtures.digestA])
        #expect(result.catalog.sessions.last?.sideFileDigests == [:]) // optional when parsing: the downloader requires them
        let bad = Self.manifestText.replacing("\"transcript\": \"\(CatalogFixtures.digestB)\"", with: "\"transcript\": \"abc\"")
        let refused = CatalogParser.parseManifest(Array(bad.utf8), fileName: "manifest.json", manifestURL: Self.manifestURL)
        #expect(refused.catalog.sessions.map(\.id.rawValue) == ["mirror-focus"])
        #expect(refused.problems.map(\.field) == ["sideFileSha256.transcript"], "\(refused.problems)")
    }

    @Test func resolvesEveryReferenceAgainstTheManifestURL() throws {
        let result = CatalogParser.parseManifest(Array(Self.manifestText.utf8), fileName: "manifest.json", manifestURL: Self.manifestURL)
        #expect(result.problems == [])
        let sessions = result.catalog.sessions
        #expect(sessions.map(\.id.rawValue) == ["steady-rain", "mirror-focus"])

        let rain = sessions[0]
        #expect(rain.audio == .remote(RemoteAudio(
            url: try RemoteURL(parsing: "https://content.stillroom.example/remote/steady-rain/audio.mp3"),
            byteCount: 9_800_000, sha256: try SHA256Digest(validating: CatalogFixtures.digestA))))
        #expect(rain.transcript == .remote(try RemoteURL(parsing: "https://content.stillroom.example/remote/steady-rain/transcript.vtt")))
        #expect(rain.breathCues == .remote(try RemoteURL(parsing: "https://content.stillroom.example/remote/steady-rain/breath.json")))

        let mirror = sessions[1]
        guard case .remote(let audio) = mirror.audio else {
            Issue.record("expected a download")
            return
        }
        #expect(audio.url.description == "https://mirror.example/focus.mp3")
        #expect(mirror.transcript == .remote(try RemoteURL(parsing: "https://content.stillroom.example/shared/focus.vtt")))
        #expect(mirror.provenance == .remote(try RemoteURL(parsing: "https://content.stillroom.example/provenance/focus.json")))
    }

    @Test func defaultSessionAndSoundsAreNotRequired() {
        let result = CatalogParser.parseManifest(Array(Self.manifestText.utf8), fileName: "manifest.json", manifestURL: Self.manifestURL)
        #expect(result.catalog.defaultSessionID == nil)
        #expect(result.catalog.sounds.isEmpty)
        #expect(result.catalog.firstBootSession == nil)
    }

    @Test func bundledAudioIsRefusedInAManifest() {
        let document = CatalogFixtures.catalog(sessions: [.object(CatalogFixtures.session("steady-breath"))])
        let result = CatalogParser.parseManifest(CatalogFixtures.encode(document), fileName: "manifest.json", manifestURL: Self.manifestURL)
        #expect(result.catalog.sessions.isEmpty)
        #expect(result.problems.map(\.description) == [
            #"manifest.json: session "steady-breath": field "audio": a remote manifest lists downloads only; give "remote" instead"#,
        ])
    }

    @Test func referencesResolvingToPlainHTTPAreRefused() throws {
        let plainBase = try RemoteURL(parsing: "http://content.example/manifest.json")
        let result = CatalogParser.parseManifest(Array(Self.manifestText.utf8), fileName: "manifest.json", manifestURL: plainBase)
        #expect(result.catalog.sessions.isEmpty)
        #expect(result.problems.count == 6) // four references in the first session, two in the second
        #expect(result.problems.first?.description == #"manifest.json: session "steady-rain": field "remote.url": "steady-rain/audio.mp3" uses plain http to "content.example"; downloads need https (http only for 127.0.0.1, ::1 or localhost)"#)
    }

    @Test func loopbackManifestServesTheLocalDemo() throws {
        let loopback = try RemoteURL(parsing: "http://127.0.0.1:8099/remote/manifest.json")
        let text = Self.manifestText.replacing("https://mirror.example/focus.mp3", with: "focus.mp3")
        let result = CatalogParser.parseManifest(Array(text.utf8), fileName: "manifest.json", manifestURL: loopback)
        #expect(result.problems == [])
        #expect(result.catalog.sessions.count == 2)
    }

    @Test func malformedReferenceIsReportedWithItsField() {
        let text = Self.manifestText.replacing("\"steady-rain/transcript.vtt\"", with: "\"steady rain/transcript.vtt\"")
        let result = CatalogParser.parseManifest(Array(text.utf8), fileName: "manifest.json", manifestURL: Self.manifestURL)
        #expect(result.catalog.sessions.map(\.id.rawValue) == ["mirror-focus"])
        #expect(result.problems.map(\.description) == [
            #"manifest.json: session "steady-rain": field "transcript": "steady rain/transcript.vtt" contains a space at position 7; write it as %20"#,
        ])
    }
}
