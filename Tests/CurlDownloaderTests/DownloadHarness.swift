// A downloader under test: a real event loop, the fault server on loopback, a data directory under
// /tmp, and an in-memory record store. Tests drive the loop until a condition holds; the only time
// limit is a hang guard (a minute with nothing happening at all), never an assertion.

@testable import CurlDownloader
import CryptoHash
import FakeContentHost
import EventLoop
import StillroomCore
import TestSupport
import Testing

/// The `audio_download` table in memory, with a switch to make writes fail like a full card.
final class MemoryRecordStore: DownloadRecordStore {
    var rows: [String: AudioDownloadRecord] = [:]
    var failWrites = false
    struct Full: Error {}

    func downloads() throws -> [AudioDownloadRecord] { rows.values.sorted { $0.sessionID < $1.sessionID } }

    func upsertDownload(_ record: AudioDownloadRecord) throws {
        if failWrites { throw Full() }
        rows[record.sessionID] = record
    }

    func deleteDownload(sessionID: String) throws -> Bool {
        if failWrites { throw Full() }
        return rows.removeValue(forKey: sessionID) != nil
    }
}

/// The bytes of a test recording: deterministic, not compressible into a pattern curl could mistake.
func recordingBytes(_ count: Int, seed: UInt32 = 1) -> [UInt8] {
    var state = seed &* 2_654_435_761 | 1
    return (0..<count).map { _ in
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return UInt8(truncatingIfNeeded: state)
    }
}

final class DownloadHarness {
    let loop: EventLoop
    let server: FaultServer
    let directory: TemporaryDirectory
    let store: MemoryRecordStore
    var manager: DownloadManager!
    var logLines: [String] = []
    var changes: [ContentID] = []
    /// Free space the manager sees (nil: the real statvfs).
    var freeSpaceOverride: Int64?
    var configuration: DownloadManager.Configuration

    /// The key the test's publisher signs its lists with (the manager trusts it).
    static let publisherKey = try! ContentSigningKey(seed: Array(repeating: 0x5a, count: 32), name: "publisher.pub")
    /// The checkout's development key, which scripts/serve-content signs with.
    static var developmentKeys: ContentKeySet {
        let folder = RepositoryPaths.developmentContentKeys
        let pem = String(decoding: Files.read(folder + "/development-content.pub"), as: UTF8.self)
        return ContentKeySet(keys: [try! ContentKey(pem: pem, name: "development-content.pub")], source: folder)
    }

    /// A key the manager does not trust.
    static let strangerKey = try! ContentSigningKey(seed: Array(repeating: 0xa5, count: 32), name: "stranger.pub")

    static let rain = try! ContentID(validating: "rain")
    static let wind = try! ContentID(validating: "wind")

    var rainBytes = recordingBytes(200_000, seed: 7)
    var windBytes = recordingBytes(50_000, seed: 9)
    var transcript = Array("WEBVTT\n\n00:00.000 --> 00:01.000\nSoft rain.\n".utf8)
    let provenance = Array("{\"made\": \"by a test\"}".utf8)

    init(dataDirectory: String? = nil, configure: (inout DownloadManager.Configuration) -> Void = { _ in }) throws {
        loop = try EventLoop()
        server = try FaultServer(loop: loop)
        directory = TemporaryDirectory("stillroom-downloads")
        store = MemoryRecordStore()
        configuration = DownloadManager.Configuration(
            dataDirectory: dataDirectory ?? directory.file("data"),
            manifestURLs: [],
            contentKeys: ContentKeySet(keys: [Self.publisherKey.publicKey], source: "the test's keys"),
            policy: DownloadPolicy(
                hosts: DownloadHostAllowList(["127.0.0.1"]),
                retry: RetryPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200), jitterFraction: 0.2,
                                   maximumAttemptsWithoutProgress: 4),
                reserveBytes: 0),
            limits: TransferLimits(lowSpeedBytesPerSecond: 1000, lowSpeedTime: .seconds(1), connectTimeout: .seconds(5)),
            spaceCheckInterval: 0,
            hashChunkBytes: 16_384)
        configuration.manifestURLs = [server.url("/remote/manifest.json")]
        server.signingKey = Self.publisherKey
        configure(&configuration)
        publishManifest()
        try makeManager()
    }

    deinit {
        manager?.shutDown()
        manager = nil
        server.stop()
        directory.remove()
    }

    /// A new manager on the same loop, store and folder: what a restart of the daemon looks like.
    func makeManager() throws {
        manager?.shutDown()
        manager = nil
        manager = try DownloadManager(configuration: configuration, loop: loop, store: store,
                                      log: { [weak self] _, line in self?.logLines.append(line) },
                                      freeSpace: { [weak self] path in self?.freeSpaceOverride ?? DownloadManager.availableBytes(at: path) },
                                      random: { 0.5 })
        manager.onChange = { [weak self] id in self?.changes.append(id) }
        manager.start()
    }

    /// Serves the manifest and files of two sessions, "rain" (200 kB) and "wind" (50 kB).
    func publishManifest(rainURL: String = "rain.mp3", rainDeclaredBytes: Int? = nil, rainDigest: SHA256Digest? = nil) {
        server.files["/remote/rain.mp3"] = rainBytes
        server.files["/remote/wind.mp3"] = windBytes
        server.files["/remote/rain.vtt"] = transcript
        server.files["/remote/wind.vtt"] = transcript
        server.files["/remote/rain.provenance.json"] = provenance
        server.files["/remote/wind.provenance.json"] = provenance
        func entry(_ id: String, _ title: String, url: String, bytes: Int, digest: SHA256Digest) -> String {
            """
            {"id": "\(id)", "title": "\(title)", "theme": "unwind", "description": "A test recording.", "durationSeconds": 60,
             "remote": {"url": "\(url)", "bytes": \(bytes), "sha256": "\(digest.hex)"},
             "transcript": "\(id).vtt", "license": {"name": "CC0 1.0", "attribution": "Stillroom project"},
             "provenance": "\(id).provenance.json", \(sideFileDigests)}
            """
        }
        publish(list: """
            {"schema": 1, "sessions": [
            \(entry("rain", "Rain", url: rainURL, bytes: rainDeclaredBytes ?? rainBytes.count, digest: rainDigest ?? SHA256Hasher.digest(rainBytes))),
            \(entry("wind", "Wind", url: "wind.mp3", bytes: windBytes.count, digest: SHA256Hasher.digest(windBytes)))
            ]}
            """)
    }

    /// The `sideFileSha256` member of an entry whose transcript and provenance are this harness's.
    var sideFileDigests: String {
        "\"sideFileSha256\": {\"transcript\": \"\(SHA256Hasher.digest(transcript).hex)\", \"provenance\": \"\(SHA256Hasher.digest(provenance).hex)\"}"
    }

    /// The version the next `publish(list:)` gives.
    var nextListVersion = 1

    /// Serves `json` as the list of sessions, as a publisher does: with the next version written in after
    /// its opening brace (the server signs it when its `.sig` is asked for).
    func publish(list json: String) {
        var text = json
        if let brace = text.firstIndex(of: "{") { text.insert(contentsOf: "\"version\": \(nextListVersion), ", at: text.index(after: brace)) }
        nextListVersion += 1
        server.files["/remote/manifest.json"] = Array(text.utf8)
    }

    /// Runs the loop until `condition` holds. Fails (instead of hanging) after a minute with no events.
    func run(until condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var idleTurns = 0
        while !condition() {
            let dispatched = try loop.runOnce(timeout: .seconds(30))
            idleTurns = dispatched == 0 ? idleTurns + 1 : 0
            if idleTurns >= 2 {
                Issue.record("the loop went idle before the condition held", sourceLocation: sourceLocation)
                throw HangGuard()
            }
        }
    }

    struct HangGuard: Error {}

    func loadManifests() throws {
        manager.refreshManifests()
        try run(until: {
            manager.manifestSources.allSatisfy { if case .loading = $0.state { false } else { true } }
        })
    }

    func status(_ id: ContentID) -> DownloadStatus? { manager.status(of: id) }

    func state(_ id: ContentID) -> DownloadStatus.State? { status(id)?.state }

    /// Runs until the download of `id` is over (on the box, failed or cancelled).
    func runUntilSettled(_ id: ContentID) throws {
        try run(until: {
            guard let state = state(id) else { return false }
            return state == .onThisBox || state == .failed || state == .cancelled
        })
    }

    var downloadsFolder: String { configuration.dataDirectory + "/downloads" }

    func file(_ name: String) -> String { downloadsFolder + "/" + name }

    /// The names in the downloads folder, sorted.
    func folder() -> [String] {
        ((try? DownloadFiles.list(downloadsFolder)) ?? []).map(\.name).sorted()
    }

    /// The checks every fault test ends with: no record pointing at a missing or wrong file, no stray
    /// partial file after a finished download, and a state that says what happened.
    func expectConsistent(sourceLocation: SourceLocation = #_sourceLocation) {
        for record in store.rows.values {
            guard let id = try? ContentID(validating: record.sessionID) else {
                Issue.record("invalid id in the store", sourceLocation: sourceLocation)
                continue
            }
            if record.state == .complete {
                let audio = Files.read(configuration.dataDirectory + "/" + record.localPath)
                #expect(SHA256Hasher.digest(audio).hex == record.sha256, "\(id): the recorded copy must match its digest",
                        sourceLocation: sourceLocation)
                #expect(Files.exists(file("\(id).transcript.vtt")), sourceLocation: sourceLocation)
                #expect(Files.exists(file("\(id).provenance.json")), sourceLocation: sourceLocation)
            }
            if record.state == .failed {
                #expect(!(record.error ?? "").isEmpty, "\(id): a failed record says why", sourceLocation: sourceLocation)
            }
            if record.state != .downloading && record.state != .queued {
                #expect(!Files.exists(file("\(id).mp3.part")), "\(id): no partial file once the download is over",
                        sourceLocation: sourceLocation)
            }
        }
        #expect(!folder().contains { $0.hasSuffix(".tmp") }, sourceLocation: sourceLocation)
    }
}
