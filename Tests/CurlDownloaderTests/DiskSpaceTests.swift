// A full card: the space check before starting, the check while writing, a capacity limit in the
// writer (always), and a real ENOSPC on a small tmpfs (when this machine lets the test mount one).

@testable import CurlDownloader
import FakeContentHost
import Glibc
import StillroomCore
import TestSupport
import Testing

/// Mounting a small tmpfs: needs root. Without it the tests that need it are counted skips (failures
/// under CI); as root, a mount that fails is a failure (`#require`), never a skip.
enum SmallTmpfs {
    static var mayMount: Bool { getuid() == 0 }

    static func mount(size: String, at path: String) -> Bool {
        getuid() == 0 && runShell("mount -t tmpfs -o size=\(size) tmpfs '\(path)' 2>/dev/null") == 0
    }

    static func unmount(_ path: String) {
        runShell("umount '\(path)' 2>/dev/null")
    }
}

@Suite struct DiskSpaceTests {
    typealias H = DownloadHarness

    @Test func notEnoughSpaceBeforeStartingFailsWithoutARequest() throws {
        let harness = try H { $0.policy.reserveBytes = 10_000 }
        try harness.loadManifests()
        harness.freeSpaceOverride = 150_000
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        guard case .diskFull(let shortage) = try #require(harness.status(H.rain)?.failure) else {
            Issue.record("expected disk full, got \(String(describing: harness.status(H.rain)))")
            return
        }
        #expect(shortage.neededBytes == 210_000)
        #expect(shortage.missingBytes == 60_000)
        #expect(harness.server.requests(for: "/remote/rain.mp3").isEmpty)
        let reason = try #require(harness.status(H.rain)?.failure?.reason)
        #expect(reason == "Not enough free space: 60.0 kB more is needed (200.0 kB for the download and 10.0 kB kept free; 150.0 kB free now).")
        harness.expectConsistent()
    }

    @Test func theWriterCapacityLimitActsLikeAFullCard() throws {
        let harness = try H { $0.writeCapacityLimit = 100_000 }
        try harness.loadManifests()
        try harness.manager.download(H.wind) // 50 kB: fits
        try harness.runUntilSettled(H.wind)
        #expect(harness.state(H.wind) == .onThisBox)
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        let status = try #require(harness.status(H.rain))
        guard case .diskFull(let shortage) = status.failure else {
            Issue.record("expected disk full, got \(status)")
            return
        }
        #expect(shortage.neededBytes == 100_000) // what was left of the file when the card filled
        #expect(shortage.availableBytes == 0)
        #expect(status.failure?.advice.contains("\"Wind\" (50.0 kB)") == true)
        #expect(harness.store.rows["rain"]?.state == .failed)
        #expect(!harness.folder().contains("rain.mp3.part"))
        #expect(harness.state(H.wind) == .onThisBox) // the other download is untouched
        harness.expectConsistent()
    }

    @Test func spaceTakenByOthersWhileWritingStopsTheDownload() throws {
        let harness = try H()
        try harness.loadManifests()
        harness.server.scripts["/remote/rain.mp3"] = [.trickle(chunk: 5000, every: .milliseconds(2))]
        harness.freeSpaceOverride = 1_000_000
        try harness.manager.download(H.rain)
        try harness.run(until: { (harness.status(H.rain)?.bytesDone ?? 0) > 20_000 })
        harness.freeSpaceOverride = 100_000 // another program filled the card
        try harness.runUntilSettled(H.rain)
        guard case .diskFull = try #require(harness.status(H.rain)?.failure) else {
            Issue.record("expected disk full, got \(String(describing: harness.status(H.rain)))")
            return
        }
        #expect(!harness.folder().contains("rain.mp3.part"))
        harness.expectConsistent()
    }

    @Test func aRealFullFileSystemIsAFailedStateAndKeepsTheOtherCopies() throws {
        guard Requirement.need(SmallTmpfs.mayMount, "mounting a small tmpfs needs root") else { return }
        let mountPoint = TemporaryDirectory("stillroom-tmpfs")
        defer { mountPoint.remove() }
        try #require(SmallTmpfs.mount(size: "320k", at: mountPoint.path))
        defer { SmallTmpfs.unmount(mountPoint.path) }

        let harness = try H(dataDirectory: mountPoint.file("data"))
        try harness.loadManifests()
        try harness.manager.download(H.wind)
        try harness.runUntilSettled(H.wind)
        #expect(harness.state(H.wind) == .onThisBox)

        // The start-time statvfs check passes (rain is 200 kB); then another writer fills the card.
        harness.server.scripts["/remote/rain.mp3"] = [.trickle(chunk: 5000, every: .milliseconds(2))]
        try harness.manager.download(H.rain)
        try harness.run(until: { (harness.status(H.rain)?.bytesDone ?? 0) > 20_000 })
        Files.write(recordingBytes(150_000), to: mountPoint.file("filler"))
        try harness.runUntilSettled(H.rain)

        let status = try #require(harness.status(H.rain))
        guard case .diskFull = status.failure else {
            Issue.record("expected disk full, got \(status)")
            return
        }
        #expect(status.failure?.advice.contains("Wind") == true)
        #expect(!harness.folder().contains("rain.mp3.part"))
        #expect(Files.read(harness.file("wind.mp3")) == harness.windBytes)
        harness.expectConsistent()
        harness.manager.shutDown()
    }

    @Test func enospcFromWriteIsADiskFullFailure() throws {
        guard Requirement.need(SmallTmpfs.mayMount, "mounting a small tmpfs needs root") else { return }
        let mountPoint = TemporaryDirectory("stillroom-tmpfs")
        defer { mountPoint.remove() }
        try #require(SmallTmpfs.mount(size: "128k", at: mountPoint.path))
        defer { SmallTmpfs.unmount(mountPoint.path) }

        // statvfs is made to report plenty, so only write(2) itself can notice the full file system.
        let harness = try H(dataDirectory: mountPoint.file("data"))
        harness.freeSpaceOverride = 10_000_000_000
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        guard case .diskFull = try #require(harness.status(H.rain)?.failure) else {
            Issue.record("expected disk full, got \(String(describing: harness.status(H.rain)))")
            return
        }
        #expect(!harness.folder().contains("rain.mp3.part"))
        #expect(harness.logLines.contains { $0.contains("Not enough free space") })
        harness.expectConsistent()
        harness.manager.shutDown()
    }
}
