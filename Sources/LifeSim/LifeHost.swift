import CryptoHash
import EventLoop
import FakeContentHost
import FoundationEssentials
import Glibc
import StillroomCore
import SystemCalls

/// The content host of a box's world: a publisher on loopback serving a signed list of two sessions, on
/// the loop of whichever life of the daemon is running (the fake host, in this process, answers in the
/// loop's turns: a transfer takes no virtual time). The world takes the network away and brings it
/// back, and makes the host lie: a changed byte, a missing file, a dropped connection, a busy answer,
/// a list whose bytes are not the ones signed.
final class LifeHost {
    /// The remote sessions: the test sweeps again, under ids of their own (what they sound like does not
    /// matter here; that only what was signed is kept, and kept, does).
    static let sessions = ["rain", "tide"]
    static let listPath = "/remote/manifest.json"

    /// What was published: each session's recording.
    private(set) var recordings: [String: [UInt8]] = [:]
    private let files: [String: [UInt8]]
    private let key: ContentSigningKey
    /// The faults the host will show to the next requests, kept across the network coming and going.
    private var scripts: [String: [FaultServer.Fault]] = [:]
    private var server: FaultServer?
    /// The host's port, fixed at the first life: the box's list of sources names it.
    private(set) var port: UInt16 = 0
    /// While the network is down: a socket bound to the port, listening to nothing, so connections are
    /// refused at once (as a missing route is, without curl's timeouts on the real clock) and no other
    /// process takes the address meanwhile.
    private var placeholder: Int32 = -1
    private(set) var up = true
    /// What the world did to it (the life's summary).
    private(set) var outages = 0
    private(set) var liesScripted = 0

    init(repository: String) throws {
        key = try Self.developmentKey(repository)
        let audio = repository + "/Tests/Fixtures/audio/"
        recordings["rain"] = try Files.readAll(audio + "sweep-20s-44k-mono.mp3", limit: 1 << 22)
        recordings["tide"] = try Files.readAll(audio + "sweep-3s-44k-mono.mp3", limit: 1 << 22)
        var files: [String: [UInt8]] = [:]
        var entries: [String] = []
        for (id, seconds) in [("rain", 20.0), ("tide", 3.0)] {
            let recording = recordings[id]!
            let transcript = Array("WEBVTT\n\n00:00.000 --> 00:03.000\nA sound from the host.\n".utf8)
            let provenance = Array("{\"made\": \"for lifesim\"}".utf8)
            files["/remote/\(id).mp3"] = recording
            files["/remote/\(id).vtt"] = transcript
            files["/remote/\(id).provenance.json"] = provenance
            entries.append("""
                {"id": "\(id)", "title": "\(id.capitalized)", "theme": "unwind", "description": "A session from the host.",
                 "durationSeconds": \(seconds), "remote": {"url": "\(id).mp3", "bytes": \(recording.count), "sha256": "\(SHA256Hasher.digest(recording).hex)"},
                 "transcript": "\(id).vtt", "license": {"name": "CC0 1.0", "attribution": "Stillroom project"},
                 "provenance": "\(id).provenance.json",
                 "sideFileSha256": {"transcript": "\(SHA256Hasher.digest(transcript).hex)", "provenance": "\(SHA256Hasher.digest(provenance).hex)"}}
                """)
        }
        files[Self.listPath] = Array("{\"schema\": 1, \"version\": 1, \"sessions\": [\(entries.joined(separator: ",\n"))]}".utf8)
        self.files = files
    }

    deinit { closePlaceholder() }

    /// The list's address, for the box's `--manifest`.
    var listURL: String { "http://127.0.0.1:\(port)\(Self.listPath)" }

    /// The digest of what the host published for `session`.
    func publishedDigest(_ session: String) -> String? { recordings[session].map { SHA256Hasher.digest($0).hex } }

    // MARK: The daemon's lives

    /// Serves on `loop` (a new life of the daemon), if the network is up.
    func attach(to loop: EventLoop) throws {
        detach()
        if up {
            try serve(on: loop)
        } else if port == 0 {
            try serve(on: loop) // the first life: the port is fixed now, then the network is down
            takeDown()
        }
    }

    /// The daemon's loop is going: the host's sockets go with it.
    func detach() {
        guard let server else { return }
        scripts = server.scripts
        server.stop()
        self.server = nil
    }

    private func serve(on loop: EventLoop) throws {
        closePlaceholder()
        let server = try FaultServer(loop: loop, port: port)
        server.files = files
        server.signingKey = key
        server.scripts = scripts
        port = server.port
        self.server = server
    }

    // MARK: The world

    func networkDown() {
        guard up else { return }
        up = false
        outages += 1
        takeDown()
    }

    /// `loop`: the running daemon's, if one runs.
    func networkUp(loop: EventLoop?) throws {
        guard !up else { return }
        up = true
        closePlaceholder()
        if let loop { try serve(on: loop) }
    }

    private func takeDown() {
        detach()
        placeholder = (try? FaultServer.boundSocket(port: port))?.fd ?? -1
    }

    private func closePlaceholder() {
        if placeholder >= 0 { close(placeholder) }
        placeholder = -1
    }

    /// The host's next answer for what `fault` touches is that fault (for a recording: whichever is asked
    /// for next). A lie stands until the next download has been tried (`forgetLies`), told or not.
    func lie(_ fault: HostFault) {
        var scripts: [String: [FaultServer.Fault]] = [:]
        liesScripted += 1
        switch fault {
        case .tamperedList:
            var tampered = files[Self.listPath] ?? []
            if let at = tampered.firstIndex(of: UInt8(ascii: "A")) { tampered[at] = UInt8(ascii: "a") } // "A session…": still valid JSON
            scripts[Self.listPath, default: []].append(.body(tampered))
        default:
            for session in Self.sessions {
                let path = "/remote/\(session).mp3"
                let size = recordings[session]?.count ?? 0
                switch fault {
                case .corrupt: scripts[path, default: []].append(.corrupt)
                case .missing: scripts[path, default: []].append(.status(404))
                case .busy: scripts[path, default: []].append(.status(503))
                case .dropped: scripts[path, default: []].append(.dropAfter(size / 2))
                // The loop's timers pace it: on virtual time, between the box's other events.
                case .slow: scripts[path, default: []].append(.trickle(chunk: max(1, (size + 11) / 12), every: .seconds(40)))
                case .tamperedList: break
                }
            }
        }
        if let server { server.scripts = scripts } else { self.scripts = scripts }
    }

    /// The next download has been tried: the host is honest again.
    func forgetLies() {
        if let server { server.scripts = [:] } else { scripts = [:] }
    }

    /// A slow answer waits on the loop's clock (`FaultServer.pacing`), and how many parts slow answers have
    /// sent in this life of the daemon.
    var pacing: Bool { server?.pacing ?? false }
    var partsSent: Int { server?.partsSent ?? 0 }
    /// Whether the box has acknowledged every byte the host sent it (`FaultServer.delivered`).
    var delivered: Bool { server?.delivered ?? true }

    /// Whether a lie is still waiting for a request.
    var lying: Bool { !(server?.scripts ?? scripts).values.allSatisfy(\.isEmpty) }

    /// The development key (board/keys/development-content.key, public on purpose), which the box trusts:
    /// the PEM's DER ends with the 32-byte seed.
    private static func developmentKey(_ repository: String) throws -> ContentSigningKey {
        let pem = String(decoding: try Files.readAll(repository + "/board/keys/development-content.key", limit: 1 << 16), as: UTF8.self)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: body), der.count >= 32 else { throw LifeHostError("the development key is not a PEM private key") }
        return try ContentSigningKey(seed: Array(der.suffix(32)), name: "development-content.pub")
    }
}

struct LifeHostError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// How the content host lies, once, to the next request for what it touches.
enum HostFault: String, CaseIterable {
    /// A recording with one byte changed (its digest no longer matches the signed list's).
    case corrupt
    /// 404 for the recordings.
    case missing
    /// 503 for the recordings.
    case busy
    /// The connection closes halfway through a recording.
    case dropped
    /// The list's bytes changed after it was signed.
    case tamperedList = "tampered-list"
    /// A recording comes a twelfth at a time, one part every 40 s of the box's time (8 minutes in all): long
    /// enough for a kill, a power cut, a restart or the network's going to land in the middle of it.
    case slow
}
