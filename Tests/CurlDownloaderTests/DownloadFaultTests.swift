// Downloads against the loopback fault server: each fault a server or network can make (docs/downloads.md), and after each one the box is
// consistent (no record pointing at nothing, previous copies intact, a state that says what happened).

@testable import CurlDownloader
import FakeContentHost
import StillroomCore
import TestSupport
import Testing

@Suite struct DownloadFaultTests {
    typealias H = DownloadHarness

    @Test func aSessionIsFetchedVerifiedAndInstalled() throws {
        let harness = try H()
        try harness.loadManifests()
        #expect(harness.manager.remoteSessions.map(\.id.rawValue) == ["rain", "wind"], "\(harness.logLines) \(harness.manager.manifestSources)")
        #expect(harness.state(H.rain) == .available)

        var sawProgress = false
        harness.manager.onChange = { [unowned harness] id in
            if let status = harness.status(id), status.state == .downloading, status.bytesDone > 0, status.bytesDone < 200_000 {
                sawProgress = true
            }
        }
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)

        #expect(harness.state(H.rain) == .onThisBox)
        #expect(sawProgress)
        let files = try #require(harness.manager.localFiles(for: H.rain))
        #expect(Files.read(files.audio) == harness.rainBytes)
        #expect(Files.read(files.transcript) == harness.transcript)
        #expect(Files.read(files.provenance) == harness.provenance)
        #expect(files.breathCues == nil)
        #expect(harness.folder() == ["rain.mp3", "rain.provenance.json", "rain.session.json", "rain.transcript.vtt"])
        // The whole entry is kept with the recording, and reads back as the session the manifest listed.
        let kept = KeptSessionEntry.decode(Files.read(harness.file("rain.session.json")), fileName: "rain.session.json")
        #expect((try? kept.get()) == harness.manager.remoteSessions.first { $0.id == H.rain })
        let record = try #require(harness.store.rows["rain"])
        #expect(record.state == .complete)
        #expect(record.localPath == "downloads/rain.mp3")
        #expect(record.bytesDone == 200_000)
        #expect(harness.server.requests(for: "/remote/rain.mp3").map(\.range) == [nil])
        #expect(throws: DownloadCommandError.alreadyOnThisBox("rain")) { try harness.manager.download(H.rain) }
        harness.expectConsistent()
    }

    @Test func aConnectionDroppedAtNBytesResumesWithARangeRequest() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.dropAfter(60_000)]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        #expect(harness.server.requests(for: "/remote/rain.mp3").map(\.range) == [nil, "bytes=60000-"])
        #expect(harness.logLines.contains { $0.contains("will retry") && $0.contains("connection was lost") })
        harness.expectConsistent()
    }

    @Test func aStalledTransferIsCutByTheLowSpeedLimitAndResumed() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.stallAfter(30_000)]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        #expect(harness.server.requests(for: "/remote/rain.mp3").map(\.range) == [nil, "bytes=30000-"])
        #expect(harness.logLines.contains { $0.contains("stalled") })
        harness.expectConsistent()
    }

    @Test func notFoundFailsAtOnceWithoutRetrying() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.status(404)]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        let status = try #require(harness.status(H.rain))
        #expect(status.state == .failed)
        #expect(status.failure == .httpStatus(404))
        #expect(status.canDownload && status.canRemove)
        #expect(harness.server.requests(for: "/remote/rain.mp3").count == 1)
        #expect(harness.store.rows["rain"]?.state == .failed)
        #expect(harness.store.rows["rain"]?.error?.contains("404") == true)
        #expect(!harness.folder().contains("rain.mp3.part"))
        harness.expectConsistent()
    }

    @Test func aServerErrorIsRetriedWithBackoffAndThenGivenUp() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = Array(repeating: .status(500), count: 10)
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        let status = try #require(harness.status(H.rain))
        #expect(status.failure == .gaveUp(attempts: 4, last: .httpStatus(500)))
        #expect(harness.server.requests(for: "/remote/rain.mp3").count == 4)
        #expect(status.summary().contains("Gave up after 4 attempts"))
        harness.expectConsistent()
    }

    @Test func unavailableThenSuccess() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.status(503), .status(503)]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        #expect(harness.server.requests(for: "/remote/rain.mp3").count == 3)
        harness.expectConsistent()
    }

    @Test func aContentLengthThatPromisesMoreThanIsSentIsRetriedFromWhereItStopped() throws {
        let harness = try H()
        // The server claims 200 kB but its connection ends after 60 kB (the next answer is honest).
        harness.server.scripts["/remote/rain.mp3"] = [.dropAfter(60_000)]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        harness.expectConsistent()
    }

    @Test(arguments: [250_000, 150_000])
    func aContentLengthThatDisagreesWithTheManifestFailsPermanently(claimed: Int) throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.claimLength(claimed)]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        let failure = try #require(harness.status(H.rain)?.failure)
        if claimed > 200_000 {
            // curl refuses the announced size (CURLOPT_MAXFILESIZE_LARGE) before the head reaches us.
            #expect(failure == .oversize(bytes: nil, limit: 200_000))
        } else {
            #expect(failure == .sizeMismatch(server: Int64(claimed), manifest: 200_000))
        }
        #expect(harness.server.requests(for: "/remote/rain.mp3").count == 1)
        harness.expectConsistent()
    }

    @Test func aChecksumMismatchIsAFailedStateAndNothingIsInstalled() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.corrupt]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        guard case .checksumMismatch = try #require(harness.status(H.rain)?.failure) else {
            Issue.record("expected a checksum mismatch, got \(String(describing: harness.status(H.rain)))")
            return
        }
        #expect(harness.server.requests(for: "/remote/rain.mp3").count == 1)
        #expect(!harness.folder().contains("rain.mp3"))
        #expect(!harness.folder().contains("rain.mp3.part"))
        #expect(harness.manager.localFiles(for: H.rain) == nil)
        harness.expectConsistent()
    }

    @Test(arguments: ["http://evil.example/rain.mp3", "https://evil.example/rain.mp3", "http://localhost:1/rain.mp3",
                      "//evil.example/rain.mp3"])
    func aRedirectToAForeignHostIsRefused(location: String) throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.redirect(location)]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        guard case .redirectRefused = try #require(harness.status(H.rain)?.failure) else {
            Issue.record("expected a refused redirect, got \(String(describing: harness.status(H.rain)))")
            return
        }
        #expect(harness.server.requests.count(where: { $0.path.hasSuffix(".mp3") }) == 1)
        harness.expectConsistent()
    }

    @Test func aRedirectWithinTheAllowListIsFollowed() throws {
        let harness = try H()
        harness.server.files["/mirror/rain.mp3"] = harness.rainBytes
        harness.server.scripts["/remote/rain.mp3"] = [.redirect("/mirror/rain.mp3")]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        #expect(harness.server.requests(for: "/mirror/rain.mp3").count == 1)
        harness.expectConsistent()
    }

    @Test func aBodyLargerThanTheManifestSaysIsOversize() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.body(harness.rainBytes + recordingBytes(5000))]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        #expect(harness.status(H.rain)?.failure == .oversize(bytes: nil, limit: 200_000))
        harness.expectConsistent()
    }

    @Test func anUnannouncedBodyIsCutAtTheManifestSize() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.unannounced(harness.rainBytes + recordingBytes(50_000))]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        guard case .oversize(let bytes?, 200_000) = try #require(harness.status(H.rain)?.failure) else {
            Issue.record("expected oversize with a byte count, got \(String(describing: harness.status(H.rain)))")
            return
        }
        #expect(bytes > 200_000)
        #expect(!harness.folder().contains("rain.mp3.part"))
        harness.expectConsistent()
    }

    @Test func aServerThatIgnoresRangeStartsTheFileAgain() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.dropAfter(50_000), .ignoreRange]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        #expect(harness.server.requests(for: "/remote/rain.mp3").map(\.range) == [nil, "bytes=50000-"])
        harness.expectConsistent()
    }

    @Test func aTrickleCanBeCancelled() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.trickle(chunk: 2000, every: .milliseconds(5))]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.run(until: { (harness.status(H.rain)?.bytesDone ?? 0) >= 10_000 })
        #expect(harness.state(H.rain) == .downloading)
        #expect(Files.exists(harness.file("rain.mp3.part")))
        try harness.manager.cancel(H.rain)
        #expect(harness.state(H.rain) == .cancelled)
        #expect(harness.store.rows["rain"]?.state == .cancelled)
        #expect(harness.folder().isEmpty)
        // Let the loop run a while: nothing more arrives and nothing changes.
        let requests = harness.server.requests.count
        try harness.manager.download(H.wind)
        try harness.runUntilSettled(H.wind)
        #expect(harness.state(H.rain) == .cancelled)
        #expect(!Files.exists(harness.file("rain.mp3.part")))
        #expect(harness.server.requests.count > requests)
        #expect(throws: DownloadCommandError.notDownloaded("rain")) { try harness.manager.cancel(H.rain) }
        // Start again, let it finish.
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        harness.expectConsistent()
    }

    @Test func aServerRestartMidTransferIsResumedWithRange() throws {
        let harness = try H()
        harness.server.scripts["/remote/rain.mp3"] = [.crashAfter(80_000)]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        // The crash: the connection drops and the server is gone (connections are refused).
        try harness.run(until: { harness.status(H.rain)?.failure.map { if case .cannotConnect = $0 { true } else { false } } ?? false })
        #expect(harness.state(H.rain) == .downloading)
        #expect(Files.exists(harness.file("rain.mp3.part")))
        try harness.server.restart()
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        #expect(harness.server.requests(for: "/remote/rain.mp3").map(\.range) == [nil, "bytes=80000-"])
        harness.expectConsistent()
    }

    @Test func downloadsWaitTheirTurn() throws {
        let harness = try H()
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.manager.download(H.wind)
        #expect(harness.state(H.rain) == .downloading)
        #expect(harness.state(H.wind) == .queued)
        try harness.run(until: { harness.state(H.rain) == .onThisBox && harness.state(H.wind) == .onThisBox })
        harness.expectConsistent()
    }
}
