import CryptoHash
import Glibc
import StillroomCore
import TestSupport
import Testing

/// scripts/serve-content on loopback, serving a manifest with one downloadable session, "far-sweep"
/// (the 20-second sweep, titled "Far sweep"), for the daemon's `--manifest`.
final class RemoteSessionServer {
    let process: Subprocess
    let manifestURL: String
    private var stopped = false

    /// `title` and `transcript` (WebVTT text) are the session's, as a download source would give them;
    /// `rate`, bytes a second per download (a slow network), or nil for no limit.
    init(in directory: TemporaryDirectory, title: String = "Far sweep",
         transcript: String = "WEBVTT\n\n00:00.000 --> 00:20.000\nA far sweep.\n", rate: Int? = nil) throws {
        let remote = Self.makeRemote(in: directory, title: title, transcript: transcript)
        process = Subprocess("/usr/bin/python3", [RepositoryPaths.root + "/scripts/serve-content", "--port", "0", "--dir", remote]
                                                 + (rate.map { ["--rate", String($0)] } ?? []))
        let announced = try #require(process.readStderrLine())
        let port = try #require(announced.split(separator: ":").last.map { $0.filter(\.isNumber) })
        manifestURL = "http://127.0.0.1:\(port)/manifest.json"
    }

    deinit { stop() }

    func stop() {
        guard !stopped else { return }
        stopped = true
        process.signal(SIGTERM)
        process.wait()
    }

    /// A folder like Content/remote: manifest.json, and the session's audio, transcript and provenance.
    private static func makeRemote(in directory: TemporaryDirectory, title: String, transcript: String) -> String {
        let remote = directory.file("remote")
        runShell("mkdir -p '\(remote)/far-sweep'")
        let audio = Files.read(RepositoryPaths.fixture("audio/sweep-20s-44k-mono.mp3"))
        Files.write(audio, to: remote + "/far-sweep/audio.mp3")
        Files.write(transcript, to: remote + "/far-sweep/transcript.vtt")
        Files.write("{}", to: remote + "/far-sweep/provenance.json")
        let hasher = SHA256Hasher()
        hasher.update(audio)
        Files.write("""
            {"schema": 1, "version": 1, "sessions": [{"id": "far-sweep", "title": \(jsonString(title)), "theme": "unwind",
              "description": "A downloadable test sweep.", "durationSeconds": 20.0,
              "remote": {"url": "far-sweep/audio.mp3", "bytes": \(audio.count), "sha256": "\(hasher.finalize().hex)"},
              "transcript": "far-sweep/transcript.vtt", "provenance": "far-sweep/provenance.json",
              \(sideFileDigests(in: remote + "/far-sweep")),
              "license": {"name": "CC0 1.0", "attribution": "Stillroom project"}}]}
            """, to: remote + "/manifest.json")
        return remote
    }

    /// The `sideFileSha256` member of a list's entry for the side files in `folder` (a session's folder of
    /// a served list), as the publisher's tools write it (scripts/content/signed_list.py).
    static func sideFileDigests(in folder: String) -> String {
        let digests = ["transcript": "transcript.vtt", "provenance": "provenance.json"].sorted { $0.key < $1.key }.map { name, file in
            "\"\(name)\": \"\(SHA256Hasher.digest(Files.read(folder + "/" + file)).hex)\""
        }
        return "\"sideFileSha256\": {" + digests.joined(separator: ", ") + "}"
    }

    /// `text` as a JSON string literal (control characters escaped, as a manifest may carry them).
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension DaemonHarness {
    /// Waits until the daemon lists `id` from its manifest, downloads it and waits until it is on the box.
    func download(_ id: String) {
        _ = waitForStatus(attempts: 500) { _ in ctl("sessions").stdout.contains(id) }
        _ = ctl("download", id)
        _ = waitForStatus(attempts: 1000) { _ in ctl("downloads").stdout.contains("On this box") }
    }
}
