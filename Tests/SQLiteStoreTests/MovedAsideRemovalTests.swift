// The damaged databases `open` set aside can be listed and removed (with their -wal and -shm), and
// nothing else is touched: deleting all history removes them, since they hold the history they had.

import Glibc
@testable import SQLiteStore
import StillroomCore
import Testing
import TestSupport

@Suite struct MovedAsideRemovalTests {
    @Test func setAsideCopiesAreListedAndRemovedWithTheirCompanionsAndNothingElse() throws {
        try withSandbox { (sandbox) throws in
            // Two damaged files in turn, at the same clock: two copies, the second with ".2".
            for seed in [1, 2] {
                writeBytes(sandbox.path, noiseBytes(count: 20_000, seed: UInt64(seed)))
                writeBytes(sandbox.path + "-wal", noiseBytes(count: 8_000, seed: UInt64(seed + 10)))
                let opened = try sandbox.open()
                opened.store.close()
            }
            Files.write("not ours", to: sandbox.directory.file("other.db.damaged-20260314T221503Z"))
            Files.write("not ours either", to: sandbox.directory.file("stillroom.db.bak"))

            let store = try sandbox.open().store
            defer { store.close() }
            let stamp = sandbox.path + ".damaged-" + MoveAsideTests.stamp
            #expect(store.movedAsideCopies() == [stamp, stamp + ".2"])

            #expect(try store.removeMovedAsideCopies() == [stamp, stamp + ".2"])
            #expect(store.movedAsideCopies() == [])
            #expect(!sandbox.listing().contains { $0.hasPrefix("stillroom.db.damaged-") })
            #expect(sandbox.listing().contains("other.db.damaged-20260314T221503Z"))
            #expect(sandbox.listing().contains("stillroom.db.bak"))
            #expect(try store.quickCheck() == ["ok"]) // the live database untouched
            #expect(try store.removeMovedAsideCopies() == []) // nothing left: nothing to do
        }
    }

    @Test func noticesOfAKindAreDismissedTogether() throws {
        try withFreshStore { (store, _) throws in
            try store.addNotice(kind: .databaseMovedAside, message: "one", now: testNow)
            try store.addNotice(kind: .databaseMovedAside, message: "two", now: testNow)
            try store.addNotice(kind: .settingReplaced, message: "kept", now: testNow)
            #expect(try store.dismissNotices(of: .databaseMovedAside, now: testNow + 1) == 2)
            #expect(try store.notices().map(\.message) == ["kept"])
        }
    }
}
