// A list of sessions is taken only when the maker's key signed it and its version does not go back
// (SignedList). A host taken over, or a network in between, can withhold lists but never choose what the
// box downloads: every refusal below says why in words, and leaves the sessions listed before, and the
// kept copy on the card, exactly as they were.

@testable import CurlDownloader
import CryptoHash
import FakeContentHost
import StillroomCore
import TestSupport
import Testing

@Suite struct SignedListTests {
    typealias H = DownloadHarness

    /// A harness whose first list (rain and wind, version 1) was taken and kept.
    func harnessWithAKeptList() throws -> H {
        let harness = try H()
        try harness.loadManifests()
        #expect(harness.manager.remoteSessions.map(\.id) == [H.rain, H.wind])
        return harness
    }

    /// The kept copies' bytes (signature and list), by file.
    func kept(_ harness: H) -> [String: [UInt8]] {
        var copies: [String: [UInt8]] = [:]
        let names = Subprocess.run("/bin/ls", ["-A", harness.downloadsFolder + "/sources"]).stdout.split(separator: "\n").map(String.init)
        for name in names {
            copies[name] = Files.read(harness.downloadsFolder + "/sources/" + name)
        }
        return copies
    }

    /// Publishes a list with one session only (so taking it would show), then refreshes; returns the
    /// source's failure.
    func offerOnlyWind(_ harness: H, serve: (H) -> Void = { _ in }) throws -> DownloadFailure? {
        harness.publish(list: """
            {"schema": 1, "sessions": [{"id": "wind", "title": "Wind, changed", "theme": "unwind", "description": "A test recording.",
             "durationSeconds": 60, "remote": {"url": "wind.mp3", "bytes": \(harness.windBytes.count),
             "sha256": "\(SHA256Hasher.digest(harness.windBytes).hex)"}, "transcript": "wind.vtt",
             "license": {"name": "CC0 1.0", "attribution": "Stillroom project"}, "provenance": "wind.provenance.json",
             \(harness.sideFileDigests)}]}
            """)
        serve(harness)
        try harness.loadManifests()
        if case .failed(let failure) = harness.manager.manifestSources[0].state { return failure }
        return nil
    }

    /// The refusal kept everything: both sessions as before, the kept copy unchanged, also after a restart.
    func expectNothingChanged(_ harness: H, keptBefore: [String: [UInt8]], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(harness.manager.remoteSessions.map(\.id) == [H.rain, H.wind], sourceLocation: sourceLocation)
        #expect(harness.manager.remoteSession(H.wind)?.title == "Wind", sourceLocation: sourceLocation)
        #expect(kept(harness) == keptBefore, sourceLocation: sourceLocation)
        harness.server.stop()
        try harness.makeManager()
        #expect(harness.manager.remoteSessions.map(\.id) == [H.rain, H.wind], sourceLocation: sourceLocation)
    }

    @Test func aListWithoutASignatureIsRefused() throws {
        let harness = try harnessWithAKeptList()
        let before = kept(harness)
        let failure = try offerOnlyWind(harness) { $0.server.scripts["/remote/manifest.json.sig"] = [.status(404)] }
        #expect(failure?.code == "untrusted_list")
        #expect(failure?.reason.contains("its signature http://127.0.0.1:") == true)
        #expect(failure?.reason.contains("manifest.json.sig could not be fetched (The server answered HTTP 404 Not Found)") == true)
        #expect(harness.logLines.contains { $0.contains("not used: its signature") })
        try expectNothingChanged(harness, keptBefore: before)
    }

    @Test func aListSignedByAnotherKeyIsRefused() throws {
        let harness = try harnessWithAKeptList()
        let before = kept(harness)
        harness.server.signingKey = H.strangerKey
        let failure = try offerOnlyWind(harness)
        #expect(failure?.reason == "The list of sessions was not used: its signature is not the maker's (no key of the test's keys verifies it).")
        #expect(failure?.advice.hasPrefix("The sessions already on the box stay as they are.") == true)
        try expectNothingChanged(harness, keptBefore: before)
    }

    func aListChangedAfterSigningIsRefused(byte: Int) throws {
        let harness = try harnessWithAKeptList()
        let before = kept(harness)
        let failure = try offerOnlyWind(harness) { harness in
            // The signature of the list as published; then one byte of the list changed in transit.
            var list = harness.server.files["/remote/manifest.json"]!
            harness.server.files["/remote/manifest.json.sig"] = H.publisherKey.sign(list)
            list[byte] ^= 0x01
            harness.server.files["/remote/manifest.json"] = list
        }
        #expect(failure?.reason.contains("its signature is not the maker's") == true)
        try expectNothingChanged(harness, keptBefore: before)
    }

    @Test(arguments: [0, 57, 300])
    func aListChangedAfterSigningAnywhereIsRefused(byte: Int) throws {
        try aListChangedAfterSigningIsRefused(byte: byte)
    }

    @Test(arguments: [0, 63, 65, 1000])
    func aSignatureOfTheWrongSizeIsRefused(size: Int) throws {
        let harness = try harnessWithAKeptList()
        let before = kept(harness)
        let failure = try offerOnlyWind(harness) { harness in
            let signature = H.publisherKey.sign(harness.server.files["/remote/manifest.json"]!)
            harness.server.files["/remote/manifest.json.sig"] = Array((signature + signature + Array(repeating: 7, count: 1000)).prefix(size))
        }
        if size > 256 {
            // More than a signature could ever be: cut off at the fetch's cap.
            #expect(failure?.reason.contains("larger than the 256 bytes") == true, "\(String(describing: failure))")
        } else {
            #expect(failure?.reason == "The list of sessions was not used: its signature is \(size) bytes, not the 64 of an Ed25519 signature.")
        }
        try expectNothingChanged(harness, keptBefore: before)
    }

    @Test func anOlderSignedListSentAgainIsRefusedAlsoAfterARestart() throws {
        let harness = try harnessWithAKeptList()
        let first = harness.server.files["/remote/manifest.json"]!
        // Version 2 (wind only) is taken…
        #expect(try offerOnlyWind(harness) == nil)
        #expect(harness.manager.remoteSessions.map(\.id) == [H.wind])
        let before = kept(harness)
        // …then the host sends version 1 again, properly signed: a replay.
        harness.server.files["/remote/manifest.json"] = first
        try harness.loadManifests()
        guard case .failed(let failure) = harness.manager.manifestSources[0].state else {
            Issue.record("the replayed list was taken")
            return
        }
        #expect(failure.reason == "The list of sessions was not used: its version 1 is older than version 2, already taken (an old list sent again).")
        #expect(harness.manager.remoteSessions.map(\.id) == [H.wind])
        #expect(kept(harness) == before)
        // The kept copy carries the floor across a restart.
        try harness.makeManager()
        #expect(harness.manager.remoteSessions.map(\.id) == [H.wind])
        try harness.loadManifests()
        #expect(harness.manager.remoteSessions.map(\.id) == [H.wind])
        #expect(kept(harness) == before)
    }

    @Test func theSameVersionWithOtherContentsIsRefused() throws {
        let harness = try harnessWithAKeptList()
        let before = kept(harness)
        harness.nextListVersion = 1
        let failure = try offerOnlyWind(harness)
        #expect(failure?.reason == "The list of sessions was not used: it is version 1, already taken with other contents (the publisher must raise the version).")
        try expectNothingChanged(harness, keptBefore: before)
    }

    @Test func aSignedListWithoutAVersionIsRefused() throws {
        let harness = try harnessWithAKeptList()
        let before = kept(harness)
        harness.server.files["/remote/manifest.json"] = Array("{\"schema\": 1, \"sessions\": []}".utf8)
        try harness.loadManifests()
        guard case .failed(let failure) = harness.manager.manifestSources[0].state else {
            Issue.record("a list without a version was taken")
            return
        }
        #expect(failure.reason == "The list of sessions was not used: it is signed, but it has no \"version\" (a signed list must say which it is).")
        try expectNothingChanged(harness, keptBefore: before)
    }

    @Test func anOversizedListIsRefusedAndTheKeptOneStays() throws {
        let harness = try harnessWithAKeptList()
        let before = kept(harness)
        harness.publish(list: "{\"schema\": 1, \"padding\": \"" + String(repeating: "x", count: Int(harness.configuration.limits.manifestByteLimit)) + "\", \"sessions\": []}")
        try harness.loadManifests()
        guard case .failed(let failure) = harness.manager.manifestSources[0].state else {
            Issue.record("the oversized list was taken")
            return
        }
        #expect(failure.code == "oversize")
        #expect(harness.server.requests(for: "/remote/manifest.json.sig").count == 1) // only for the first list
        try expectNothingChanged(harness, keptBefore: before)
    }

    @Test func aKeptCopyChangedOnTheCardIsNotUsed() throws {
        let harness = try harnessWithAKeptList()
        harness.server.stop()
        let name = try #require(kept(harness).keys.first)
        let path = harness.downloadsFolder + "/sources/" + name
        var bytes = Files.read(path)
        // The title of wind, as the daemon's user could edit it on the card.
        let text = String(decoding: bytes.dropFirst(64), as: UTF8.self).replacing("\"Wind\"", with: "\"Gale\"")
        bytes = Array(bytes.prefix(64)) + Array(text.utf8)
        Files.write(bytes, to: path)
        try harness.makeManager()
        #expect(harness.manager.remoteSessions.isEmpty)
        #expect(harness.logLines.contains { $0.contains("the kept list of http://127.0.0.1:") && $0.contains("is not used: its signature is not the maker's") })
    }

    @Test func aKeptListFromBeforeListsWereSignedIsRemoved() throws {
        let harness = try harnessWithAKeptList()
        harness.server.stop()
        let name = try #require(kept(harness).keys.first)
        let stem = harness.downloadsFolder + "/sources/" + name.dropLast(".signed".count)
        Files.write(Array(Files.read(harness.downloadsFolder + "/sources/" + name).dropFirst(64)), to: stem + ".json")
        runShell("rm '\(harness.downloadsFolder)/sources/\(name)'")
        try harness.makeManager()
        #expect(harness.manager.remoteSessions.isEmpty)
        #expect(!Files.exists(stem + ".json"))
        #expect(harness.logLines.contains { $0.contains("removed the unsigned list kept for") })
    }

    @Test func withoutKeysEveryListIsRefused() throws {
        let harness = try H { $0.contentKeys = ContentKeySet(keys: [], source: "/usr/share/stillroom/content-keys") }
        try harness.loadManifests()
        guard case .failed(let failure) = harness.manager.manifestSources[0].state else {
            Issue.record("a list was taken with no keys")
            return
        }
        #expect(failure.reason == "The list of sessions was not used: the box has no key to check lists of sessions with (none in /usr/share/stillroom/content-keys).")
        #expect(harness.manager.remoteSessions.isEmpty)
        #expect(kept(harness).isEmpty)
    }

    /// A full card when a newer list arrives (a real 1 MiB tmpfs, filled): the newer list is used now, the
    /// copy kept before stays whole and signed, and after a restart with no network the box lists what that
    /// copy lists, its signature checked; once the source is back the newer list is taken and kept.
    @Test func aFullCardKeepsTheEarlierSignedCopyWholeAcrossARestart() throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let folder = TemporaryDirectory("stillroom-signed-full")
        defer { folder.remove() }
        let disk = try SmallDisk(at: folder.file("card"), kibibytes: 1024)
        defer { disk.unmount() }
        let harness = try H(dataDirectory: disk.path + "/data")
        try harness.loadManifests()
        let before = kept(harness)
        #expect(before.count == 1)
        disk.fill()
        #expect(try offerOnlyWind(harness) == nil)
        #expect(harness.manager.remoteSessions.map(\.id) == [H.wind])
        #expect(harness.logLines.contains { $0.contains("could not keep a copy of") }, "\(harness.logLines.suffix(3))")
        #expect(kept(harness) == before)

        harness.server.stop()
        try harness.makeManager()
        #expect(harness.manager.remoteSessions.map(\.id) == [H.rain, H.wind])
        #expect(!harness.logLines.contains { $0.contains("the kept list of") && $0.contains("is not used") })

        runShell("rm -f '\(disk.path)/\(SmallDisk.fillerName)'")
        try harness.server.restart()
        try harness.loadManifests()
        #expect(harness.manager.remoteSessions.map(\.id) == [H.wind])
        #expect(kept(harness) != before)
    }
}
