import CryptoHash
import MPG123Decoder
import StillroomCore
import TestSupport
import Testing

/// The shipped content can never drift silently: catalog ↔ files ↔ transcripts ↔ measured durations ↔
/// checksums ↔ provenance, for the bundled sessions, the sounds and the remote sample set.
@Suite struct ContentConsistencyTests {
    let content = RepositoryPaths.content

    func json(_ path: String) throws -> JSONValue { try JSONValue.parse(Files.read(path)) }

    func sha256(_ path: String) -> String {
        let hasher = SHA256Hasher()
        hasher.update(Files.read(path))
        return hasher.finalize().hex
    }

    /// The provenance record's `files` list: every file it names exists with that size and checksum.
    func checkProvenance(_ path: String, folder: String) throws -> Set<String> {
        let provenance = try json(path)
        var named: Set<String> = []
        for file in provenance["files"]?.arrayValue ?? [] {
            let name = try #require(file["path"]?.stringValue)
            named.insert(name)
            let full = folder + "/" + name
            #expect(Files.read(full).count == file["bytes"]?.integerValue, "\(full): size")
            #expect(sha256(full) == file["sha256"]?.stringValue, "\(full): sha256 differs from its provenance")
        }
        #expect(provenance["outputLicence"]?["name"]?.stringValue == "CC BY 4.0", "\(path): output licence")
        checkVoiceLicenceChain(provenance, path: path)
        return named
    }

    /// A recording with narration ships only if every link of its voice's licence chain (training data,
    /// model, text front end, engine, where it was obtained) reads clear, with the evidence and where it
    /// was read (docs/content.md, "Voice licence chain").
    func checkVoiceLicenceChain(_ provenance: JSONValue, path: String) {
        guard let voice = provenance["voice"], voice["backend"] != nil else { return }   // sounds have no voice
        let chain = voice["licenceChain"]?.arrayValue ?? []
        #expect(!chain.isEmpty, "\(path): the voice's licence chain is recorded")
        for link in chain {
            let name = link["link"]?.stringValue ?? "?"
            #expect(link["status"]?.stringValue == "clear", "\(path): voice licence link \(name) is not clear")
            // Plain locals: #expect's expansion of `!(optional ?? default).isEmpty` failed on non-empty values.
            let evidence = link["evidence"]?.stringValue ?? ""
            let sources = link["sources"]?.arrayValue ?? []
            #expect(!evidence.isEmpty, "\(path): voice licence link \(name) has no evidence")
            #expect(!sources.isEmpty, "\(path): voice licence link \(name) names no source")
        }
    }

    /// Decodes the whole file (every frame, a clean decode) and returns its length in seconds.
    func decodedSeconds(_ path: String) throws -> Double {
        let decoder = try MP3Decoder(path: path)
        #expect(decoder.sampleRate == 44_100, "\(path): 44.1 kHz")
        let frames = try decoder.scanLength()
        var buffer = [Int16](repeating: 0, count: 16_384 * 2)
        var decoded: Int64 = 0
        while case .frames(let count) = try buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }) {
            decoded += Int64(count)
        }
        #expect(decoded == frames, "\(path): decoding gives every scanned frame")
        return Double(frames) / Double(decoder.sampleRate)
    }

    func checkSession(_ session: Session, folder: String, audio: String) throws {
        let seconds = try decodedSeconds(audio)
        #expect(abs(seconds - session.durationSeconds) <= 0.05, "\(session.id): catalog says \(session.durationSeconds) s, audio is \(seconds) s")
        #expect((180...600).contains(seconds), "\(session.id): 3 to 10 minutes")
        guard case .bundled(let transcriptPath) = session.transcript else { return }
        let transcript = try WebVTTParser.parse(Files.read(folder + "/" + transcriptPath.rawValue), fileName: transcriptPath.rawValue)
        #expect(!transcript.cues.isEmpty)
        #expect((transcript.cues.last?.end.seconds ?? 0) <= seconds, "\(session.id): transcript ends inside the recording")
        if case .bundled(let cuesPath)? = session.breathCues {
            let track = try BreathCueParser.parse(Files.read(folder + "/" + cuesPath.rawValue), fileName: cuesPath.rawValue,
                                                  recordingSeconds: seconds)
            #expect(!track.cues.isEmpty)
        }
        guard case .bundled(let provenancePath) = session.provenance else { return }
        let named = try checkProvenance(folder + "/" + provenancePath.rawValue,
                                        folder: folder + "/" + provenancePath.components.dropLast().joined(separator: "/"))
        #expect(named.contains("audio.mp3") && named.contains("transcript.vtt") && named.contains("script.txt"),
                "\(session.id): provenance covers audio, transcript and script")
    }

    @Test func everyBundledSessionDecodesMatchesItsCatalogEntryAndItsProvenance() throws {
        let parsed = CatalogParser.parseCatalog(Files.read(content + "/catalog.json"), fileName: "catalog.json")
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        let catalog = parsed.catalog
        #expect(catalog.sessions.count >= 6)
        #expect(Set(catalog.sessions.map(\.theme)) == [.breathe, .focus, .unwind])
        let first = try #require(catalog.firstBootSession)
        #expect(first.theme == .breathe && (290...310).contains(first.durationSeconds), "a five-minute breathing session plays first")
        var bundledBytes = 0
        for session in catalog.sessions {
            guard case .bundled(let audio) = session.audio else { Issue.record("\(session.id) is not bundled"); continue }
            try checkSession(session, folder: content, audio: content + "/" + audio.rawValue)
            bundledBytes += Files.read(content + "/" + audio.rawValue).count
        }
        #expect(bundledBytes <= 40_000_000, "bundled audio is \(bundledBytes) bytes")
    }

    @Test func theSoundsExistDecodeAndHaveProvenance() throws {
        let catalog = CatalogParser.parseCatalog(Files.read(content + "/catalog.json"), fileName: "catalog.json").catalog
        #expect(Set(catalog.sounds.map(\.id.rawValue)) == ["chime", "tick"])
        for sound in catalog.sounds {
            let path = content + "/" + sound.audio.rawValue
            #expect(try decodedSeconds(path) < 10)
            _ = try checkProvenance(content + "/" + sound.provenance.rawValue, folder: content + "/sounds")
        }
    }

    @Test func theRemoteSampleSetHasExactSizesAndChecksums() throws {
        let base = try RemoteURL(parsing: "http://127.0.0.1:8765/manifest.json")
        let parsed = CatalogParser.parseManifest(Files.read(content + "/remote/manifest.json"), fileName: "manifest.json", manifestURL: base)
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        #expect(parsed.catalog.sessions.count >= 3)
        for session in parsed.catalog.sessions {
            guard case .remote(let remote) = session.audio else { continue }
            let folder = content + "/remote/" + session.id.rawValue
            let audio = folder + "/audio.mp3"
            #expect(Files.read(audio).count == remote.byteCount, "\(session.id): bytes")
            #expect(sha256(audio) == remote.sha256.hex, "\(session.id): sha256")
            let seconds = try decodedSeconds(audio)
            #expect(abs(seconds - session.durationSeconds) <= 0.05)
            _ = try checkProvenance(folder + "/provenance.json", folder: folder)
        }
    }

    /// Content/remote is published as a host would: its list signed (scripts/sign-list) with the development
    /// key the simulator trusts, and versioned. A list edited without signing again fails here.
    @Test func theRemoteSampleListIsSignedWithTheDevelopmentKeyAndVersioned() throws {
        let list = Files.read(content + "/remote/manifest.json")
        let signature = Files.read(content + "/remote/manifest.json.sig")
        let pem = String(decoding: Files.read(RepositoryPaths.developmentContentKeys + "/development-content.pub"), as: UTF8.self)
        let checker = try ContentSignatureChecker(keys: [try ContentKey(pem: pem, name: "development-content.pub")])
        #expect(checker.signer(of: list, signature: signature)?.name == "development-content.pub",
                "Content/remote/manifest.json changed since it was signed: raise its version and run scripts/sign-list on it")
        #expect(try SignedList.version(of: list).get() >= 1)
    }
}
