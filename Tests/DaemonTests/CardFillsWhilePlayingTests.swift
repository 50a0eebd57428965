import Glibc
import StillroomCore
import TestSupport
import Testing

/// The card fills while a session plays (the real daemon on a small tmpfs filled for real, ten times
/// fast): the checkpoints no longer reach it, and the box says so. Before, `status` went on reporting the
/// place the player had *asked* to save ("Last checkpoint: 2 s ago", `canSave: true`, no notice) while a
/// kill -9 then offered the place from before the card filled.
@Suite struct CardFillsWhilePlayingTests {
    /// The real daemon on a 4 MiB tmpfs, ten times fast, playing; the card filled for real once a
    /// checkpoint is on it. `body` gets them with the first status that says nothing can be saved (the
    /// -wal's own blocks take a few more commits first).
    func playUntilTheCardFills(_ body: (DaemonHarness, SmallDisk, JSONValue) throws -> Void) throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let harness = DaemonHarness(content: RepositoryPaths.content, extraArguments: ["--time-warp", "10"])
        let disk = try SmallDisk(at: harness.dataDirectory, kibibytes: 4096)
        defer {
            harness.stop()
            disk.unmount()
        }
        harness.start()
        #expect(harness.ctl("play", "steady-breath").status == 0)
        _ = harness.waitForStatus { (statusJSON($0)["lastCheckpoint"]?["position"]?.doubleValue ?? 0) > 5 }
        disk.fill()
        try body(harness, disk, statusJSON(harness.waitForStatus { statusJSON($0)["storage"]?["canSave"]?.boolValue == false }))
    }

    @Test func statusReportsTheLastCheckpointOnTheCardAndTheNoticeShowsUntilThereIsRoom() throws {
        try playUntilTheCardFills { harness, disk, full in
            #expect(full["storage"]?["problem"]?.stringValue?.contains("full") == true, "\(full)")
            #expect(full["notices"]?.arrayValue?.contains { $0["kind"]?.stringValue == "storage-full" } == true, "\(full)")
            let onCard = try #require(full["lastCheckpoint"]?["position"]?.doubleValue)
            // Playback goes on; the place reported stays the one on the card, growing older.
            let later = statusJSON(harness.waitForStatus { statusReport($0).position > onCard + 25 })
            #expect(later["state"]?.stringValue == "playing")
            #expect(later["lastCheckpoint"]?["position"]?.doubleValue == onCard, "\(later)")
            #expect((later["lastCheckpoint"]?["ageSeconds"]?.doubleValue ?? 0) > 20, "\(later)")
            #expect(harness.ctl("status").stdout.contains("The memory card is full"))
            let doctor = harness.ctl("doctor")
            #expect(doctor.status != 0 && doctor.stdout.contains("full"), "\(doctor)")

            // Room again: the next checkpoint reaches the card, the notice goes.
            disk.makeRoom()
            let roomy = statusJSON(harness.waitForStatus { statusJSON($0)["storage"]?["canSave"]?.boolValue == true })
            #expect(roomy["notices"]?.arrayValue?.contains { $0["kind"]?.stringValue == "storage-full" } == false, "\(roomy)")
            let saved = try #require(roomy["lastCheckpoint"]?["position"]?.doubleValue)
            #expect(saved > onCard + 25)

            // What status said is what a power cut finds.
            let log = harness.stop(signal: SIGKILL).log
            #expect(log.contains("storage: the card has room again"))
            harness.start()
            let after = statusJSON(harness.ctl("status", "--json").stdout)
            #expect(after["lastCheckpoint"]?["position"]?.doubleValue ?? -1 >= saved, "\(after)")
        }
    }

    /// The place status reports after a kill -9 on a card still full is the one it reported before.
    @Test func aPowerCutOnAFullCardOffersThePlaceStatusReported() throws {
        try playUntilTheCardFills { harness, _, full in
            let onCard = try #require(full["lastCheckpoint"]?["position"]?.doubleValue)
            _ = harness.waitForStatus { statusReport($0).position > onCard + 25 }
            let reported = statusJSON(harness.ctl("status", "--json").stdout)["lastCheckpoint"]?["position"]?.doubleValue
            harness.stop(signal: SIGKILL)
            harness.start()
            let after = statusJSON(harness.ctl("status", "--json").stdout)
            #expect(after["lastCheckpoint"]?["position"]?.doubleValue == reported, "reported \(String(describing: reported)); \(after)")
        }
    }

    /// Room again while nothing plays: the next change that is saved (here the volume) ends the notice.
    @Test func aSavedChangeAfterRoomIsMadeEndsTheNotice() throws {
        try playUntilTheCardFills { harness, disk, _ in
            #expect(harness.ctl("stop").status == 0)
            disk.makeRoom()
            #expect(statusJSON(harness.ctl("status", "--json").stdout)["storage"]?["canSave"]?.boolValue == false)
            #expect(harness.ctl("volume", "40").status == 0)
            let status = statusJSON(harness.ctl("status", "--json").stdout)
            #expect(status["storage"]?["canSave"]?.boolValue == true, "\(status)")
            #expect(status["notices"]?.arrayValue?.contains { $0["kind"]?.stringValue == "storage-full" } == false, "\(status)")
        }
    }
}
