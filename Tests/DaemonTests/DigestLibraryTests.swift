import ControlProtocol
import Glibc
import TestSupport
import Testing

/// libcrypto is loaded with the first digest (CDigest), not at exec. A box whose libcrypto breaks after it
/// downloaded a session (the library an empty file, in a mount namespace of the daemon's own) starts,
/// plays the copy it has, and says why the copy and the kept lists could not be checked: the daemon runs
/// as the image has it, with libcrypto's entry dropped (DrawingLibrariesTests).
@Suite struct DigestLibraryTests {
    @Test func aDownloadedCopyStillPlaysWhenLibcryptoCannotBeLoaded() throws {
        guard Requirement.need(geteuid() == 0, "a mount namespace with bind mounts needs root") else { return }
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "image/drop-unused-libraries needs /usr/bin/python3") else { return }
        let harness = DaemonHarness()
        harness.binary = try DrawingLibrariesTests.daemonAsTheImageHasIt(in: harness)
        let server = try RemoteSessionServer(in: harness.directory)
        harness.extraArguments = ["--manifest", server.manifestURL]
        harness.start()
        _ = harness.waitForStatus(attempts: 500) { _ in harness.ctl("sessions").stdout.contains("far-sweep") }
        harness.download("far-sweep")
        #expect(harness.mappedFiles().contains("libcrypto.so"), "the download was checked through the loaded library")
        let (stopped, _) = harness.stop()
        #expect(stopped == 0)
        server.stop()

        harness.breakLibraries([try #require(SharedLibraries.path(of: "libcrypto.so.3"))])
        harness.start()
        #expect(harness.ctl("play", "far-sweep").status == 0)
        let playing = harness.waitForStatus { statusReport($0).state == .playing }
        #expect(statusReport(playing).session == "far-sweep", "\(playing)")
        _ = harness.waitForStatus(attempts: 500) { _ in harness.ctl("downloads").stdout.contains("libcurl could not be loaded") }
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(log.contains("downloads: the kept session lists cannot be read: libcrypto could not be loaded ("), "\(log)")
        #expect(log.contains("downloads: could not check far-sweep: SHA-256 (libcrypto could not be loaded"), "\(log)")
        #expect(!log.contains("Fatal error") && !log.contains("called without its library"), "\(log)")
    }

    /// A download cut by kill -9, then libcrypto broken at the next start: the download cannot go on (its
    /// list is not reached, its bytes cannot be hashed), so its partial bytes stay on the card, untouched,
    /// for a start that can, and the box plays.
    @Test func aPartialDownloadIsKeptWhenLibcryptoBreaksAfterAKill() throws {
        guard Requirement.need(geteuid() == 0, "a mount namespace with bind mounts needs root") else { return }
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "image/drop-unused-libraries needs /usr/bin/python3") else { return }
        let harness = DaemonHarness()
        harness.binary = try DrawingLibrariesTests.daemonAsTheImageHasIt(in: harness)
        let server = try RemoteSessionServer(in: harness.directory, rate: 20_000)
        harness.extraArguments = ["--manifest", server.manifestURL]
        harness.start()
        _ = harness.waitForStatus(attempts: 500) { _ in harness.ctl("sessions").stdout.contains("far-sweep") }
        #expect(harness.ctl("download", "far-sweep").status == 0)
        let part = harness.dataDirectory + "/downloads/far-sweep.mp3.part"
        _ = harness.waitForStatus(attempts: 1000) { _ in Self.size(part) > 20_000 }
        _ = harness.stop(signal: SIGKILL)
        let cut = Self.size(part)
        #expect(cut > 20_000, "the download was cut part-way")

        harness.breakLibraries([try #require(SharedLibraries.path(of: "libcrypto.so.3"))])
        harness.start()
        #expect(harness.ctl("play", "sweep").status == 0)
        #expect(statusReport(harness.waitForStatus { statusReport($0).state == .playing }).session == "sweep")
        _ = harness.waitForStatus(attempts: 500) { _ in harness.ctl("downloads").stdout.contains("libcurl could not be loaded") }
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(Self.size(part) == cut, "the partial bytes were not kept as they were")
        #expect(!log.contains("Fatal error") && !log.contains("called without its library"), "\(log)")
        server.stop()
    }

    /// The size of the file at `path`, or -1 when there is none.
    static func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : -1
    }
}
