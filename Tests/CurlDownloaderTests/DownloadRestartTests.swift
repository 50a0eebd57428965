// Restarts: a clean stop or a power cut mid-download resumes with Range; start-up reconciles the records
// with the folder; removal; updates that fail leave the earlier copy playing.

@testable import CurlDownloader
import FakeContentHost
import StillroomCore
import TestSupport
import Testing

@Suite struct DownloadRestartTests {
    typealias H = DownloadHarness

    /// Starts rain trickling and runs until at least `bytes` are in its .part file.
    func partlyDownload(_ harness: H, bytes: Int64) throws {
        harness.server.scripts["/remote/rain.mp3"] = [.trickle(chunk: 4000, every: .milliseconds(2))]
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.run(until: { (harness.status(H.rain)?.bytesDone ?? 0) >= bytes })
    }

    @Test(arguments: [true, false])
    func aDownloadResumesAfterARestartWithARangeRequest(cleanStop: Bool) throws {
        let harness = try H()
        try partlyDownload(harness, bytes: 40_000)
        if cleanStop {
            harness.manager.shutDown() // SIGTERM: the record is saved with the bytes so far
            #expect(harness.store.rows["rain"]?.state == .downloading)
            #expect((harness.store.rows["rain"]?.bytesDone ?? 0) >= 40_000)
        }
        harness.manager = nil // a power cut when not stopped cleanly: only the .part file knows the progress
        let partBytes = try #require(DownloadFiles.size(harness.file("rain.mp3.part")))
        #expect(partBytes >= 40_000)

        try harness.makeManager()
        // Until a manifest names the session again, it waits.
        #expect(harness.state(H.rain) == .queued)
        #expect(harness.store.rows["rain"]?.bytesDone == partBytes)
        try harness.loadManifests()
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        #expect(harness.server.requests(for: "/remote/rain.mp3").last?.range == "bytes=\(partBytes)-")
        #expect(harness.logLines.contains { $0.contains("resuming rain from byte \(partBytes)") })
        harness.expectConsistent()
    }

    @Test func aPartFileOfAnOlderVersionIsDiscardedWhenTheManifestChanged() throws {
        let harness = try H()
        try partlyDownload(harness, bytes: 20_000)
        harness.manager = nil
        harness.rainBytes = recordingBytes(120_000, seed: 99)
        harness.publishManifest()
        try harness.makeManager()
        try harness.loadManifests()
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        #expect(harness.server.requests(for: "/remote/rain.mp3").last?.range == nil)
        #expect(Files.read(harness.file("rain.mp3")) == harness.rainBytes)
        harness.expectConsistent()
    }

    /// Installs rain, then damages the box in `damage`, restarts, and lets start-up checks finish.
    func installThenRestart(_ damage: (H) -> Void) throws -> H {
        let harness = try H()
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        try #require(harness.state(H.rain) == .onThisBox)
        harness.manager.shutDown()
        damage(harness)
        try harness.makeManager()
        // The background check reads a chunk per loop turn; run until it has reported.
        try harness.run(until: { harness.manager.verifier.map { !$0.isBusy } ?? true })
        return harness
    }

    @Test func aMissingFileIsNoLongerOnThisBox() throws {
        let harness = try installThenRestart { runShell("rm '\($0.file("rain.mp3"))'") }
        #expect(harness.store.rows["rain"] == nil)
        #expect(harness.manager.localFiles(for: H.rain) == nil)
        #expect(harness.folder().isEmpty) // its side files went too
        harness.expectConsistent()
    }

    @Test func aDamagedCopyIsAFailedStateAfterTheStartUpCheck() throws {
        let harness = try installThenRestart { harness in
            var bytes = Files.read(harness.file("rain.mp3"))
            bytes[1000] ^= 0x01
            Files.write(bytes, to: harness.file("rain.mp3"))
        }
        let status = try #require(harness.status(H.rain))
        #expect(status.state == .failed)
        #expect(status.failure?.reason.contains("damaged") == true)
        #expect(!harness.folder().contains("rain.mp3"))
        harness.expectConsistent()
    }

    @Test func strayFilesAreCleanedAtStart() throws {
        let harness = try installThenRestart { harness in
            Files.write([1, 2, 3], to: harness.file("rain.mp3.part"))
            Files.write([1, 2, 3], to: harness.file("ghost.mp3"))
            Files.write([1, 2, 3], to: harness.file("ghost.mp3.part"))
            Files.write([1, 2, 3], to: harness.file("rain.transcript.vtt.tmp"))
            Files.write([1, 2, 3], to: harness.file("notes.txt"))
        }
        #expect(harness.folder() == ["notes.txt", "rain.mp3", "rain.provenance.json", "rain.session.json", "rain.transcript.vtt"])
        #expect(harness.state(H.rain) == .onThisBox)
        harness.expectConsistent()
    }

    @Test func aFinishedFileWhoseRecordWasNotYetWrittenIsAdopted() throws {
        // A power cut between the rename and the database write: the record still says downloading.
        let harness = try installThenRestart { harness in
            harness.store.rows["rain"]?.state = .downloading
            harness.store.rows["rain"]?.bytesDone = 190_000
        }
        #expect(harness.store.rows["rain"]?.state == .complete)
        #expect(harness.state(H.rain) == .onThisBox)
        harness.expectConsistent()
    }

    @Test func removalAsksFirstDeletesEverythingAndRefusesBundledSessions() throws {
        let harness = try H()
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        #expect(harness.manager.removalPrompt(for: H.rain) == "Remove \u{201C}Rain\u{201D} from this box? It frees 200.0 kB. You can download it again later.")
        let entryBytes = Int64(Files.read(harness.file("rain.session.json")).count)
        #expect(entryBytes > 0)
        #expect(try harness.manager.remove(H.rain) == 200_000 + Int64(harness.transcript.count + harness.provenance.count) + entryBytes)
        #expect(harness.folder().isEmpty)
        #expect(harness.store.rows["rain"] == nil)
        #expect(harness.state(H.rain) == .available)
        #expect(throws: DownloadCommandError.notDownloaded("rain")) { try harness.manager.remove(H.rain) }

        let bundled = try ContentID(validating: "steady-breath")
        harness.manager.bundledSessionIDs = [bundled]
        #expect(harness.manager.removalPrompt(for: bundled) == nil)
        #expect(throws: DownloadCommandError.bundled("steady-breath")) { try harness.manager.remove(bundled) }
        #expect(throws: DownloadCommandError.bundled("steady-breath")) { try harness.manager.download(bundled) }
    }

    @Test func removingARunningDownloadCancelsIt() throws {
        let harness = try H()
        try partlyDownload(harness, bytes: 10_000)
        try harness.manager.remove(H.rain)
        #expect(harness.folder().isEmpty)
        #expect(harness.store.rows["rain"] == nil)
        #expect(harness.state(H.rain) == .available)
    }

    @Test func aRemovalTheDatabaseRefusesKeepsTheFiles() throws {
        let harness = try H()
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        harness.store.failWrites = true
        #expect(throws: DownloadCommandError.self) { try harness.manager.remove(H.rain) }
        #expect(harness.folder().contains("rain.mp3"))
        harness.store.failWrites = false
        harness.expectConsistent()
    }

    enum UpdateFault: String, CaseIterable {
        case notFound, corrupt, foreignRedirect, oversize, dropTwiceAndGiveUp, cancel, diskFullAtStart
    }

    /// An update (the manifest now names a new version) that fails in any way leaves the earlier copy
    /// on the box, playable, with its record untouched.
    @Test(arguments: UpdateFault.allCases)
    func aFailedUpdateLeavesTheEarlierCopyIntact(fault: UpdateFault) throws {
        let harness = try H()
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        let earlier = harness.rainBytes
        let earlierRecord = try #require(harness.store.rows["rain"])

        harness.rainBytes = recordingBytes(200_000, seed: 1234)
        harness.publishManifest()
        try harness.loadManifests()
        switch fault {
        case .notFound: harness.server.scripts["/remote/rain.mp3"] = [.status(404)]
        case .corrupt: harness.server.scripts["/remote/rain.mp3"] = [.corrupt]
        case .foreignRedirect: harness.server.scripts["/remote/rain.mp3"] = [.redirect("https://evil.example/x.mp3")]
        case .oversize: harness.server.scripts["/remote/rain.mp3"] = [.body(harness.rainBytes + [0])]
        case .dropTwiceAndGiveUp: harness.server.scripts["/remote/rain.mp3"] = Array(repeating: .dropAfter(0), count: 8)
        case .cancel: harness.server.scripts["/remote/rain.mp3"] = [.trickle(chunk: 1000, every: .milliseconds(5))]
        case .diskFullAtStart: harness.freeSpaceOverride = 1000
        }
        try harness.manager.download(H.rain)
        if fault == .cancel {
            try harness.run(until: { (harness.status(H.rain)?.bytesDone ?? 0) > 5000 })
            try harness.manager.cancel(H.rain)
        }
        try harness.runUntilSettled(H.rain)

        let status = try #require(harness.status(H.rain))
        #expect(status.state == (fault == .cancel ? .cancelled : .failed))
        #expect(status.previousCopyOnThisBox)
        #expect(status.isPlayableOffline)
        #expect(Files.read(harness.file("rain.mp3")) == earlier)
        #expect(harness.store.rows["rain"] == earlierRecord)
        #expect(harness.manager.localFiles(for: H.rain) != nil)
        #expect(!harness.folder().contains("rain.mp3.part"))
        harness.expectConsistent()

        // And a successful update replaces it.
        harness.freeSpaceOverride = nil
        harness.server.scripts["/remote/rain.mp3"] = []
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        #expect(harness.state(H.rain) == .onThisBox)
        #expect(Files.read(harness.file("rain.mp3")) == harness.rainBytes)
        harness.expectConsistent()
    }
}
