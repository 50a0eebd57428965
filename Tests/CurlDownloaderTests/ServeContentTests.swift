// scripts/serve-content, the demo server: the downloader fetches through it, Range included, and (once
// the content engineer's Content/remote/manifest.json is in the tree) every sample session downloads and
// verifies against its manifest entry.

@testable import CurlDownloader
import CryptoHash
import FakeContentHost
import EventLoop
import Glibc
import StillroomCore
import TestSupport
import Testing

/// `scripts/serve-content` running as a child process on a free loopback port.
final class ServeContent {
    let process: Subprocess
    let port: UInt16

    static var isAvailable: Bool { access("/usr/bin/python3", X_OK) == 0 }

    init(folder: String) throws {
        port = try Self.freePort()
        process = Subprocess(RepositoryPaths.root + "/scripts/serve-content", ["--port", "\(port)", "--dir", folder],
                             environment: ["PATH": "/usr/bin:/bin"])
        // Set-up, not an assertion: wait until the server accepts connections (a few hundred ms at most).
        var attempts = 0
        while !Self.accepts(port) {
            attempts += 1
            try #require(attempts < 500, "scripts/serve-content did not start")
            usleep(20_000)
        }
    }

    deinit {
        process.signal(SIGINT)
        process.wait()
    }

    func url(_ path: String) -> RemoteURL { try! RemoteURL(parsing: "http://127.0.0.1:\(port)\(path)") }

    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(ok)
        return UInt16(bigEndian: address.sin_port)
    }

    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

@Suite struct ServeContentTests {
    typealias H = DownloadHarness

    @Test func theDemoServerServesDownloadsAndResumesWithRange() throws {
        guard Requirement.need(ServeContent.isAvailable, "scripts/serve-content needs /usr/bin/python3") else { return }
        let harness = try H()
        let folder = harness.directory.file("remote")
        runShell("mkdir -p '\(folder)'")
        for (path, bytes) in harness.server.files where path.hasPrefix("/remote/") {
            Files.write(bytes, to: folder + "/" + path.dropFirst("/remote/".count))
        }
        let server = try ServeContent(folder: folder)
        harness.configuration.manifestURLs = [server.url("/manifest.json")]
        harness.configuration.contentKeys = H.developmentKeys

        // A partial file from an earlier attempt: the demo server must answer the Range request.
        runShell("mkdir -p '\(harness.downloadsFolder)'")
        Files.write(Array(harness.rainBytes.prefix(70_000)), to: harness.file("rain.mp3.part"))
        harness.store.rows["rain"] = AudioDownloadRecord(
            sessionID: "rain", localPath: "downloads/rain.mp3", state: .downloading, bytesDone: 70_000, bytesTotal: 200_000,
            sha256: SHA256Hasher.digest(harness.rainBytes).hex, updatedAt: 1)
        try harness.makeManager()
        try harness.loadManifests()
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        #expect(harness.logLines.contains { $0.contains("resuming rain from byte 70000") })
        try harness.manager.download(H.wind)
        try harness.runUntilSettled(H.wind)
        #expect(harness.state(H.wind) == .onThisBox)
        harness.expectConsistent()
    }

    static var hasSampleRemoteContent: Bool { Files.exists(RepositoryPaths.content + "/remote/manifest.json") }

    @Test func everySampleRemoteSessionDownloadsAndVerifies() throws {
        guard Requirement.need(ServeContent.isAvailable, "scripts/serve-content needs /usr/bin/python3"),
              Requirement.need(Self.hasSampleRemoteContent, "no Content/remote/manifest.json in the tree") else { return }
        let server = try ServeContent(folder: RepositoryPaths.content + "/remote")
        let harness = try H { _ in }
        harness.configuration.manifestURLs = [server.url("/manifest.json")]
        harness.configuration.contentKeys = H.developmentKeys
        harness.configuration.policy.reserveBytes = 0
        try harness.makeManager()
        try harness.loadManifests()
        #expect(harness.manager.manifestSources[0].problems == [])
        let sessions = harness.manager.remoteSessions
        #expect(!sessions.isEmpty)
        for session in sessions { try harness.manager.download(session.id) }
        try harness.run(until: { sessions.allSatisfy { [.onThisBox, .failed].contains(harness.state($0.id)) } })
        for session in sessions {
            #expect(harness.state(session.id) == .onThisBox, "\(session.id): \(String(describing: harness.status(session.id)?.failure))")
        }
        harness.expectConsistent()
    }
}
