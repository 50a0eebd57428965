import ControlProtocol
import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// A card that fails: ext4 turns itself read-only after an error, and the box must keep playing, read what
/// it saved, and say that nothing new can be kept. Each test puts the data folder on a real loop-mounted
/// ext4 file system with errors=remount-ro and triggers a real ext4 error; the daemon runs in this process on
/// virtual time, but for the kill -9, which needs the real binary. (Found by using the box: the
/// daemon exited "cannot start … not writable" and systemd restarted it forever; the box was silent.)
@Suite(.serialized) struct ReadOnlyCardTests {
    func card(for harness: DaemonUnderTest) throws -> Ext4Card {
        var why = ""
        let card = Ext4Card(mountPoint: harness.dataDirectory, why: &why)
        return try #require(card, "\(why)")
    }

    func json(_ text: String) -> JSONValue { (try? JSONValue.parse(Array(text.utf8))) ?? .null }

    func storageNotice(_ status: StatusReport) -> StatusReport.Notice? {
        status.notices.first { $0.kind == .storageReadOnly }
    }

    @Test func aCardThatFailsWhileListeningKeepsPlayingAndSaysNothingCanBeSaved() throws {
        guard Requirement.need(Ext4Card.mayMount, Ext4Card.whyNot) else { return }
        let harness = DrivenDaemon()
        let card = try card(for: harness)
        try harness.start()
        #expect(harness.ctl("play", "long").status == 0)
        _ = harness.waitForStatus { statusReport($0).state == .playing && statusReport($0).position >= 1 }
        card.fail()
        #expect(card.refusesWrites)
        // The pause's checkpoint is the first write to meet the failed card.
        #expect(harness.ctl("pause").status == 0)
        let said = statusReport(harness.waitForStatus { $0.contains("storage-read-only") })
        #expect(storageNotice(said) != nil, "\(said)")
        #expect(said.live?.storageProblem != nil)
        #expect(harness.ctl("resume").status == 0)
        let playing = harness.waitForStatus { statusReport($0).state == .playing && statusReport($0).position >= 3 }
        #expect(statusReport(playing).session == "long")
        let doctor = harness.ctl("doctor", "--json")
        #expect(doctor.status != 0)
        let storage = json(doctor.stdout)["checks"]?.arrayValue?.first { $0["check"]?.stringValue == "storage" }
        #expect(storage?["ok"]?.boolValue == false, "\(doctor.stdout)")
        #expect(storage?["detail"]?.stringValue?.contains("Read-only file system") == true, "\(doctor.stdout)")
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(log.contains("<3>storage: "), "\(log)")
    }

    /// A setting changed on the screen of a failed card is said to be unchanged, and what the screen meant
    /// to say about the change is not said (the refusal and the words come in one run of the box's effects).
    @Test func aSettingChangedOnTheScreenOfAFailedCardIsSaidUnchangedAndNothingElse() throws {
        guard Requirement.need(Ext4Card.mayMount, Ext4Card.whyNot) else { return }
        let harness = DrivenDaemon(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        let card = try card(for: harness)
        try harness.start(keys: true)
        #expect(harness.ctl("settings", "set", "spoken-labels", "on").status == 0)
        card.fail()
        let before = statusReport(harness.ctl("status", "--json").stdout)
        let events = before.observed.inputEvents
        let said = before.observed.spokenLabels
        // The knob turned to the end of the library (the settings), pressed: settings, on the text size;
        // pressed again: the text size changes, which the card cannot keep.
        harness.typeKeys(String(repeating: "\u{1B}[B", count: 40) + "\r\r")
        let settled = statusReport(harness.waitForStatus {
            let status = statusReport($0)
            return status.observed.inputEvents >= events + 44 && !status.observed.labelPending
        })
        let spoken = settled.observed.spoken
        let new = Array(spoken.suffix(settled.observed.spokenLabels - said))
        #expect(new.contains("Text size not changed: the setting could not be saved."), "\(new)")
        #expect(!new.contains { $0.lowercased().contains("large") }, "the change was said: \(new)")
        #expect(json(harness.ctl("settings", "--json").stdout)["text-size"]?.stringValue != "large")
        #expect(harness.stop().status == 0)
    }

    /// The breathing timer's run meets the failed card at its saves: the timer still runs to its end, the
    /// box says nothing can be saved, and nothing half-written is kept.
    @Test func aBreathingTimerOnACardThatFailsRunsToItsEndAndSaysNothingCanBeSaved() throws {
        guard Requirement.need(Ext4Card.mayMount, Ext4Card.whyNot) else { return }
        let harness = DrivenDaemon()
        let card = try card(for: harness)
        try harness.start()
        #expect(throws: Never.self) { try harness.request(.timer(.start(pattern: nil, minutes: 1))).get() }
        try harness.advance(by: .seconds(5))
        card.fail()
        #expect(card.refusesWrites)
        try harness.advance(by: .seconds(30)) // its saves at 10, 20 and 30 s meet the failed card
        #expect(harness.result(.timer(.show))?.timer?.running?.remainingSeconds == 25, "the timer stopped on the failed card")
        try harness.advance(by: .seconds(30))
        #expect(harness.result(.timer(.show))?.timer?.running == nil, "the timer did not end")
        let status = harness.status()
        #expect(storageNotice(status) != nil, "\(status)")
        #expect(PracticeKept(harness).runs == 0)
        let (exit, log) = harness.stop()
        #expect(exit == 0)
        #expect(log.contains("<3>storage: "), "\(log)")
        #expect(log.contains("breathing timer: finished after 60 s"), "\(log)")
    }

    @Test func aBoxStartedOnAReadOnlyCardPlaysReadsWhatWasSavedAndSaysSo() throws {
        guard Requirement.need(Ext4Card.mayMount, Ext4Card.whyNot) else { return }
        let harness = DrivenDaemon()
        let card = try card(for: harness)
        try harness.start()
        saveAPlaceAndTheVolume(harness)
        #expect(harness.ctl("favorite", "add", "sweep").status == 0)
        harness.stop()
        card.fail()

        try harness.start() // before: "cannot start: data directory … is not writable", exit 1, restarted forever
        let status = statusReport(harness.ctl("status", "--json").stdout)
        #expect(status.live != nil) // the daemon answered, not the CLI alone
        #expect(storageNotice(status)?.message.contains("nothing new can be kept") == true, "\(status)")
        // What was saved still shows: the place to resume, the volume, the favourite.
        #expect(status.resumeOffer?.session == "long", "\(status)")
        #expect(status.live?.volume == 35)
        #expect(harness.ctl("sessions", "--favorites").stdout.contains("sweep"))
        #expect(harness.ctl("play").status == 0)
        let playing = harness.waitForStatus { statusReport($0).state == .playing && statusReport($0).position >= 8 }
        #expect(statusReport(playing).session == "long")
        // A change that cannot be kept is refused, not claimed, and in words: no SQLite message, no codes.
        for change in [["favorite", "add", "long"], ["volume", "20"], ["settings", "set", "headphones-cap", "40"],
                       ["reminder", "set", "21:00"], ["dismiss", "--notice", "1"]] {
            let refused = harness.ctl(change)
            #expect(refused.status != 0, "\(change): \(refused)")
            for jargon in ["readonly database", "[code", "extended", "settings.set", "SQLITE", "StoreError"] {
                #expect(!refused.stderr.contains(jargon), "\(change): \(refused.stderr)")
            }
        }
        #expect(harness.ctl("volume", "20").stderr.contains("volume stays 35: the new value could not be saved (the memory card cannot "
                                                              + "be written (it is read-only))"))
        harness.stop()

        // The CLI with the daemon down reads the read-only database too; it does not claim there is none.
        let history = harness.ctl("history", "recent", "--json")
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("\"recent\""), "\(history.stdout)")
        let doctor = json(harness.ctl("doctor", "--json").stdout)
        let checks = doctor["checks"]?.arrayValue ?? []
        #expect(checks.first { $0["check"]?.stringValue == "database" }?["ok"]?.boolValue == true, "\(doctor)")
        #expect(checks.first { $0["check"]?.stringValue == "storage" }?["ok"]?.boolValue == false, "\(doctor)")
        #expect(json(harness.ctl("status", "--json").stdout)["lastCheckpoint"]?["session"]?.stringValue == "long")
    }

    /// 12 s into "long", paused with its checkpoint written, and the volume at 35: what a card failing
    /// afterwards must still show.
    private func saveAPlaceAndTheVolume(_ harness: DaemonUnderTest) {
        #expect(harness.ctl("play", "long").status == 0)
        #expect(harness.ctl("seek", "0:12").status == 0)
        #expect(harness.ctl("pause").status == 0)
        _ = harness.waitUntil { statusReport($0).state == .paused && statusReport($0).lastCheckpoint != nil }
        #expect(harness.ctl("volume", "35").status == 0)
    }

    /// The daemon killed (a crash, a watchdog restart) and the card then failing: what the killed daemon
    /// committed is in the -wal alone (no checkpoint, and no -shm since the store holds the database alone).
    @Test func aPlaceSavedJustBeforeAKillIsOfferedFromAReadOnlyCard() throws {
        guard Requirement.need(Ext4Card.mayMount, Ext4Card.whyNot) else { return }
        let harness = DaemonHarness()
        let card = try card(for: harness)
        harness.start()
        saveAPlaceAndTheVolume(harness)
        harness.stop(signal: SIGKILL)
        card.fail()

        harness.start()
        let status = statusReport(harness.ctl("status", "--json").stdout)
        #expect(status.resumeOffer?.session == "long", "\(status)")
        #expect(status.live?.volume == 35, "\(status)")
    }

    @Test func aFirstBootOnAFailedCardStillPlays() throws {
        guard Requirement.need(Ext4Card.mayMount, Ext4Card.whyNot) else { return }
        let harness = DrivenDaemon()
        let card = try card(for: harness)
        card.fail()
        try harness.start()
        #expect(harness.ctl("play", "sweep").status == 0)
        let playing = harness.waitForStatus { statusReport($0).state == .playing }
        #expect(storageNotice(statusReport(playing)) != nil, "\(playing)")
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(log.contains("nothing could be read; starting with empty data in memory"), "\(log)")
    }
}
