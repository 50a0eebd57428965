import Glibc
import SQLiteStore
import StillroomCore
import TestSupport
import Testing

/// A change the card has no room to save is refused, and the box keeps doing what is saved: the data
/// folder is a small tmpfs filled for real, the daemon and CLI are the real binaries.
@Suite struct FullCardSettingsTests {
    @Test
    func aSettingThatCannotBeSavedIsRefusedAndTheBoxKeepsTheSavedValue() throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let harness = DaemonHarness()
        let disk = try SmallDisk(at: harness.dataDirectory, kibibytes: 4096)
        defer {
            harness.stop()
            disk.unmount()
        }
        // A notice to dismiss later (what a moved-aside database or a failed download leaves).
        let noticeID: Int64
        do {
            let store = try SQLiteStore.open(path: harness.dataDirectory + "/stillroom.db", now: 1_773_526_503_000).store
            defer { store.close() }
            noticeID = try store.addNotice(kind: .downloadFailed, message: "A notice to dismiss.", now: 1_773_526_503_000).id
        }
        harness.start()
        #expect(harness.ctl("settings", "set", "headphones-cap", "30").status == 0)
        #expect(harness.ctl("volume", "50").status == 0)

        var walInfo = stat()
        let walBytes = stat(harness.dataDirectory + "/stillroom.db-wal", &walInfo) == 0 ? Int(walInfo.st_size) : 0
        disk.fill()
        // A full card can still take commits that fit in the blocks the -wal already has (the store keeps
        // them and rewrites the -wal in place): a one-page change is 1 KiB and 24 bytes. Volume changes until
        // one is refused use up that room; the box keeps the last one it accepted, and from then on nothing
        // fits. Bounded both ways: some room is used, and no more than the -wal had.
        var kept = 50
        var accepted = 0
        for attempt in 0..<3000 {
            let value = 51 + attempt % 40 // always a change from the last
            let change = harness.ctl("volume", String(value))
            if change.status != 0 {
                #expect(change.stderr.contains("volume stays \(kept)"), "\(change.stderr)")
                break
            }
            kept = value
            accepted += 1
        }
        #expect(accepted < 3000 && accepted <= walBytes / 1048 + 4, "the full card took \(accepted) volume changes; the -wal had \(walBytes) bytes")
        let refused = harness.ctl("settings", "set", "headphones-cap", "20")
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("headphones-cap stays 30") && refused.stderr.contains("full"), "\(refused.stderr)")
        #expect(harness.ctl("settings").stdout.contains("headphones-cap  30 "))

        let volume = harness.ctl("volume", "10")
        #expect(volume.status == 1, "\(volume)")
        #expect(volume.stderr.contains("volume stays \(kept)"), "\(volume.stderr)")
        #expect(statusJSON(harness.ctl("status", "--json").stdout)["volume"]?.integerValue == kept)

        let dismiss = harness.ctl("dismiss", "--notice", String(noticeID))
        #expect(dismiss.status == 1, "\(dismiss)")
        #expect(dismiss.stderr.contains("full"), "\(dismiss.stderr)")
        let notices = statusJSON(harness.ctl("status", "--json").stdout)["notices"]?.arrayValue ?? []
        #expect(notices.contains { $0["id"]?.integerValue == Int(noticeID) })

        // These already refused on a full card; kept here so they stay that way.
        #expect(harness.ctl("favorite", "add", "sweep").status == 1)
        #expect(harness.ctl("reminder", "set", "21:00").status == 1)

        // After a restart the box does what was saved, and that is what it said it kept.
        disk.makeRoom()
        harness.stop(signal: SIGKILL)
        harness.start()
        #expect(harness.ctl("settings").stdout.contains("headphones-cap  30 "))
        #expect(statusJSON(harness.ctl("status", "--json").stdout)["volume"]?.integerValue == kept)
    }
}
