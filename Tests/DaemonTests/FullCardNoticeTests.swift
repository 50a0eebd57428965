import Glibc
import SQLiteStore
@testable import StillroomDaemon
import DrivenDaemonSupport
import TestSupport
import Testing

/// The full card's notice stands while the card is full, whatever single save happens to fit: a commit
/// can still go into blocks the database's -wal already has on a card with no byte free. It used to end
/// at any save that went through and come back at the next that did not, and with spoken labels on the
/// box said "The memory card is full" again at each return (lifesim, seed 33, day 150).
@Suite struct FullCardNoticeTests {
    @Test func aSaveThatFitsOnAFullCardDoesNotEndTheNoticeAndRoomDoes() throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let driven = DrivenDaemon()
        _ = mkdir(driven.dataDirectory, 0o750)
        let disk = try SmallDisk(at: driven.dataDirectory, kibibytes: 4096)
        defer {
            if driven.daemon != nil { _ = driven.stop() }
            disk.unmount()
        }
        try driven.start()
        let daemon = try #require(driven.daemon)
        disk.fill()
        // A checkpoint refused for want of room: the notice stands.
        daemon.storeWriteFailed(StoreError(kind: .diskFull, code: 13, extendedCode: 13, operation: "transaction commit",
                                           message: "database or disk is full"), "checkpoint")
        #expect(driven.status().notices.contains { $0.kind == .storageFull })
        // The next one fits in the -wal: the card is as full as it was, and the notice stays.
        daemon.storeWriteWentThrough()
        #expect(driven.status().notices.contains { $0.kind == .storageFull }, "the notice went with a save that fitted")
        #expect(daemon.storage.problem != nil)
        // Room made: the next save that goes through ends it.
        disk.makeRoom()
        daemon.storeWriteWentThrough()
        #expect(!driven.status().notices.contains { $0.kind == .storageFull }, "room was made and the notice stayed")
        #expect(daemon.storage.problem == nil)
    }
}
