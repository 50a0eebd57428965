// What the manager keeps so sessions survive a restart with the source unreachable: the entry of each
// download beside its recording, and each source's last good manifest.

@testable import CurlDownloader
import FakeContentHost
import StillroomCore
import TestSupport
import Testing

@Suite struct KeptListsTests {
    typealias H = DownloadHarness

    /// rain downloaded, then a restart with the server gone.
    func downloadThenRestartOffline() throws -> H {
        let harness = try H()
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        harness.server.stop()
        try harness.makeManager()
        return harness
    }

    @Test func aDownloadKeepsItsSessionAndTheListStaysWhenTheSourceIsDown() throws {
        let harness = try downloadThenRestartOffline()
        // Before any fetch: the session from its kept entry, the rest from the kept manifest.
        #expect(harness.manager.remoteSession(H.rain)?.title == "Rain")
        #expect(harness.manager.sessions.map(\.id) == [H.rain, H.wind])
        #expect(harness.status(H.rain)?.state == .onThisBox)
        #expect(harness.status(H.wind)?.state == .available)
        #expect(harness.status(H.wind)?.offer == .remembered)
        #expect(harness.status(H.wind)?.summary().contains("when the box is online") == true)
        #expect(harness.manager.localFiles(for: H.rain) != nil)
        // The fetch fails; nothing is lost.
        try harness.loadManifests()
        if case .failed = harness.manager.manifestSources[0].state {} else { Issue.record("the source should have failed") }
        #expect(harness.manager.manifestSources[0].remembered)
        #expect(harness.manager.sessions.map(\.id) == [H.rain, H.wind])
        #expect(harness.status(H.rain)?.state == .onThisBox)
        harness.expectConsistent()
    }

    @Test func withoutTheKeptManifestTheDownloadStillPlaysFromItsEntry() throws {
        let harness = try H()
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        harness.server.stop()
        runShell("rm -r '\(harness.downloadsFolder)/sources'")
        try harness.makeManager()
        #expect(harness.manager.sessions.map(\.id) == [H.rain])
        #expect(harness.status(H.rain)?.state == .onThisBox)
        #expect(harness.status(H.wind) == nil)
    }

    @Test func aSessionDroppedByTheManifestStaysPlayableMarkedWithdrawn() throws {
        let harness = try H()
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        harness.publish(list: "{\"schema\": 1, \"sessions\": []}")
        try harness.loadManifests()
        #expect(harness.manager.remoteSessions.isEmpty)
        #expect(harness.manager.sessions.map(\.id) == [H.rain])
        #expect(harness.status(H.rain)?.offer == .withdrawn)
        #expect(harness.status(H.rain)?.summary().hasSuffix("no longer offered") == true)
        #expect(harness.manager.localFiles(for: H.rain) != nil)
        // And across a restart with the server down: the kept (now empty) list agrees.
        harness.server.stop()
        try harness.makeManager()
        #expect(harness.manager.sessions.map(\.id) == [H.rain])
        #expect(harness.status(H.rain)?.offer == .withdrawn)
        try harness.manager.remove(H.rain)
        #expect(harness.manager.sessions.isEmpty)
        #expect(harness.folder().isEmpty)
    }

    @Test func anUnreadableManifestKeepsTheLastGoodList() throws {
        let harness = try H()
        try harness.loadManifests()
        harness.publish(list: "{\"schema\": 1, \"sessions\": [")
        try harness.loadManifests()
        #expect(harness.manager.remoteSessions.map(\.id) == [H.rain, H.wind])
        try harness.makeManager() // the kept copy is still the good one
        #expect(harness.manager.remoteSessions.map(\.id) == [H.rain, H.wind])
    }

    @Test func aDownloadMadeBeforeEntriesWereKeptGetsOneWhenAListNamesIt() throws {
        let harness = try H()
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        runShell("rm '\(harness.file("rain.session.json"))'")
        try harness.makeManager()
        #expect(harness.status(H.rain)?.state == .onThisBox) // the kept manifest still lists it
        try harness.loadManifests()
        #expect(harness.folder().contains("rain.session.json"))
    }

    @Test func aDamagedKeptEntryIsReportedAndIgnored() throws {
        let harness = try H()
        try harness.loadManifests()
        try harness.manager.download(H.rain)
        try harness.runUntilSettled(H.rain)
        Files.write("{\"manifest\": \"http://127.0.0.1/m.json\", \"session\": {\"id\": \"rain\"}}", to: harness.file("rain.session.json"))
        harness.server.stop()
        runShell("rm -r '\(harness.downloadsFolder)/sources'")
        try harness.makeManager()
        #expect(harness.logLines.contains { $0.contains("the kept entry of rain is unusable") })
        #expect(harness.manager.sessions.isEmpty)
        #expect(harness.status(H.rain)?.state == .onThisBox) // the copy stays; a list naming it brings it back
    }
}
