import Glibc
import StillroomCore
import TestSupport
import Testing

/// Reminders through the real daemon. Nothing here has to happen within a real-time window: the daemon's
/// clocks run fast (`--time-warp`), the reminder is aimed at a minute checked to be still ahead of the
/// daemon's own clock, and each step waits for what the daemon reports.
@Suite struct ReminderScenarioTests {
    /// ×5: the five-minute session lasts a minute of real time and the reminder comes due 4-16 real seconds
    /// after it is set, so a poll loop slowed by a loaded machine still sends the session back long before
    /// its end (a CI run at ×20 saw it end first: 12 real seconds of margin were not enough there).
    static let warp = 5

    /// The box's (warped) wall time, as its status reports it.
    func wallTime(_ harness: DaemonHarness) -> Double? {
        statusJSON(harness.ctl("status", "--json").stdout)["timeWarp"]?["wallTime"]?.doubleValue
    }

    func reminder(_ harness: DaemonHarness) -> JSONValue { statusJSON(harness.ctl("reminder", "--json").stdout) }

    /// One try of the scenario: a five-minute session plays; the reminder is set a little ahead; while it
    /// comes due the session is kept playing (sent back to its start whenever it is past 1:00: four
    /// warped minutes, 48 real seconds, from its end); once the daemon says the reminder is waiting, the session
    /// is sent near its end. Returns the log, or nil if the reminder could not be set ahead of the clock.
    func dueDuringASession() -> (log: String, waitedWhilePlaying: Bool, card: Bool, lastStatus: String)? {
        let harness = DaemonHarness(content: RepositoryPaths.content, extraArguments: ["--time-warp", String(Self.warp)])
        // 21:20 local: the night display (21:00-07:00) is on, so the reminder may not sound.
        let zone = LocalZone(makingLocalSecondOfDay: 21 * 3600 + 20 * 60)
        harness.start(environment: ["TZ": zone.tz])
        defer { harness.stop() }
        #expect(harness.ctl("play", "steady-breath").status == 0)
        _ = harness.waitForStatus { statusJSON($0)["state"]?.stringValue == "playing" }
        guard zone.setReminder(lead: 20, wallNow: { wallTime(harness) },
                               set: { harness.ctl("reminder", "set", $0).status == 0 }) != nil else { return nil }
        var waitedWhilePlaying = false
        let lastStatus = harness.waitForStatus(attempts: 6000) { text in
            let status = statusJSON(text)
            // An answer that could not be read (a loaded machine) says nothing about the session: ask again.
            guard let state = status["state"]?.stringValue else { return false }
            if (status["position"]?.doubleValue ?? 0) > 60 { harness.ctl("seek", "0") }
            if state != "playing" { return true } // ended after all: the checks below fail
            guard reminder(harness)["waiting"]?.boolValue == true else { return false }
            waitedWhilePlaying = statusJSON(harness.ctl("status", "--json").stdout)["state"]?.stringValue == "playing"
            return true
        }
        harness.ctl("seek", "4:55")
        let card = harness.waitForStatus(attempts: 6000) { _ in reminder(harness)["card"]?.boolValue == true }
        _ = card
        let shown = reminder(harness)["card"]?.boolValue == true
        return (harness.stop().log, waitedWhilePlaying, shown, lastStatus)
    }

    @Test func aReminderDueDuringASessionWaitsForItsEndAndFallsBackToACard() throws {
        let tried = try #require(dueDuringASession(), "the reminder could not be set ahead of the daemon's clock")
        #expect(tried.waitedWhilePlaying, "the reminder was not waiting while the session played; last status \(tried.lastStatus)")
        #expect(tried.card, "no card after the session ended")
        #expect(tried.log.contains("reminder: a silent card (sound not allowed now)"))
        #expect(tried.log.range(ofText: "ended steady-breath") < tried.log.range(ofText: "reminder: a silent card"))
    }

    @Test func aReminderMissedWhileOffIsShownWithinHalfAnHourAndDroppedAfter() {
        for (minutesLate, expectCard) in [(20, true), (45, false)] {
            let harness = DaemonHarness()
            harness.start()
            harness.ctl("reminder", "set", "21:30")
            harness.stop()
            // The time zone below moves the local clock, not the instant: backdate the setting a day, so the
            // reminder was set before the one it missed came due (one due before it was set is never missed).
            #expect(runShell("sqlite3 '\(harness.dataDirectory)/stillroom.db' "
                             + "'UPDATE reminder_preference SET updated_at = updated_at - 86400000'") == 0)
            harness.start(environment: ["TZ": LocalZone(makingLocalSecondOfDay: 21 * 3600 + (30 + minutesLate) * 60).tz])
            let reminder = harness.ctl("reminder", "--json").stdout
            #expect(reminder.contains("\"card\":\(expectCard)"), "\(minutesLate) minutes late")
            harness.stop()
        }
    }
}

extension String {
    /// The offset of the first occurrence of `text` (Int.max when absent), for order checks.
    func range(ofText text: String) -> Int {
        let haystack = Array(utf8)
        let needle = Array(text.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return Int.max }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return Int.max
    }
}

@Suite struct ReminderRestartTests {
    /// Set at 21:50 for 21:30, the reminder is next due tomorrow; a restart must not show today's as missed.
    @Test func aReminderSetAfterItsTimeTodayIsNotShownAsMissedAfterARestart() {
        let harness = DaemonHarness()
        let zone = LocalZone(makingLocalSecondOfDay: 21 * 3600 + 50 * 60).tz
        harness.start(environment: ["TZ": zone])
        let set = harness.ctl("reminder", "set", "21:30", "--json").stdout
        #expect(set.contains("\"card\":false"))
        let next = set.split(separator: "\"next\":").last?.prefix { $0 != "," }
        harness.stop()
        harness.start(environment: ["TZ": zone])
        let after = harness.ctl("reminder", "--json").stdout
        #expect(after.contains("\"card\":false"), "\(after)")
        #expect(after.split(separator: "\"next\":").last?.prefix { $0 != "," } == next, "\(set) then \(after)")
        harness.stop()
    }
}
