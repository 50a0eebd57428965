import Glibc
import StillroomCore
import TestSupport
import Testing

/// A POSIX TZ value that makes the local time now equal to `localSecondOfDay` (so a reminder can be due
/// a few seconds from now without touching the machine's clock).
func timeZoneMaking(localSecondOfDay target: Int) -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var offset = (target - Int(now.tv_sec % 86_400) + 86_400) % 86_400
    if offset > 43_200 { offset -= 86_400 }
    let west = -offset // POSIX offsets count westward
    let sign = west < 0 ? "-" : "+"
    let magnitude = abs(west)
    return "<TST>\(sign)\(magnitude / 3600):\(magnitude % 3600 / 60):\(magnitude % 60)"
}

@Suite struct ReminderScenarioTests {
    @Test func aReminderDueDuringASessionWaitsForItsEndAndFallsBackToACard() {
        let harness = DaemonHarness()
        harness.daemonAudioDevice = "paced:2" // the 20-second sweep lasts 10 seconds
        harness.start(environment: ["TZ": timeZoneMaking(localSecondOfDay: 21 * 3600 + 29 * 60 + 56)])
        #expect(harness.ctl("reminder", "set", "21:30").status == 0)
        harness.ctl("play", "long")
        // Due while playing: it waits.
        _ = harness.waitForStatus { _ in harness.ctl("reminder", "--json").stdout.contains("\"waiting\":true") }
        #expect(harness.ctl("status", "--json").stdout.contains("\"state\":\"playing\""))
        // The session ends: it fires. At 21:30 the night display is on (21:00-07:00), so it may not sound:
        // the silent card.
        let card = harness.waitForStatus { _ in harness.ctl("reminder", "--json").stdout.contains("\"card\":true") }
        _ = card
        let (_, log) = harness.stop()
        #expect(log.contains("reminder: a silent card (sound not allowed now)"))
        #expect(log.range(ofText: "ended long") < log.range(ofText: "reminder: a silent card"))
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
            harness.start(environment: ["TZ": timeZoneMaking(localSecondOfDay: 21 * 3600 + (30 + minutesLate) * 60)])
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
        let zone = timeZoneMaking(localSecondOfDay: 21 * 3600 + 50 * 60)
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
