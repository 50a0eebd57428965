// The daemon's store satisfies DownloadRecordStore as it is: this is the one line the daemon adds.

@testable import CurlDownloader
import CryptoHash
import SQLiteStore
import StillroomCore
import TestSupport
import Testing

extension SQLiteStore: DownloadRecordStore {}

@Suite struct SQLiteStoreConformanceTests {
    @Test func aDownloadIsRecordedInSQLiteAndSurvivesARestart() throws {
        let folder = TemporaryDirectory("stillroom-sqlite-downloads")
        defer { folder.remove() }
        let store = try SQLiteStore.open(path: folder.file("stillroom.db"), now: 1).store
        defer { store.close() }
        let harness = try DownloadHarness { $0.dataDirectory = folder.file("data") }
        let manager = try DownloadManager(configuration: harness.configuration, loop: harness.loop, store: store, log: { _, _ in })
        manager.start()
        manager.refreshManifests()
        try harness.run(until: { !manager.remoteSessions.isEmpty })
        try manager.download(DownloadHarness.wind)
        try harness.run(until: { manager.status(of: DownloadHarness.wind)?.state == .onThisBox })
        let record = try #require(try store.download(sessionID: "wind"))
        #expect(record.state == .complete)
        #expect(record.sha256 == SHA256Hasher.digest(harness.windBytes).hex)

        let restarted = try DownloadManager(configuration: harness.configuration, loop: harness.loop, store: store, log: { _, _ in })
        restarted.start()
        #expect(restarted.status(of: DownloadHarness.wind)?.state == .onThisBox)
        try restarted.remove(DownloadHarness.wind)
        #expect(try store.download(sessionID: "wind") == nil)
        manager.shutDown()
        restarted.shutDown()
    }
}
