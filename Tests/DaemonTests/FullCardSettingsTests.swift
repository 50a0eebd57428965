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

        disk.fill()
        // A full card can still take a commit that fits in the last block the -wal already has: with 1 KiB
        // pages a small commit often does. Volume changes until one is refused use up that slack; the box
        // keeps the last one it accepted, and from then on nothing fits.
        var kept = 50
        for attempt in 51...70 {
            let change = harness.ctl("volume", String(attempt))
            if change.status != 0 {
                #expect(change.stderr.contains("volume stays \(kept)"), "\(change.stderr)")
                break
            }
            kept = attempt
        }
        #expect(kept < 60, "the full card took \(kept - 50) volume changes")
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
