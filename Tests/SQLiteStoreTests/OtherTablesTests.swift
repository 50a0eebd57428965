@testable import SQLiteStore
import StillroomCore
import Testing

@Suite struct ReminderPreferenceTests {
    let preference = ReminderPreferenceRecord(enabled: true, minuteOfDay: 7 * 60 + 30, weekdays: [.monday, .friday],
                                              style: .chime, quietStartMinute: 22 * 60, quietEndMinute: 6 * 60,
                                              updatedAt: testNow)

    @Test func absentUntilSetThenASingleRowReplacedInPlace() throws {
        try withFreshStore { (store, _) throws in
            #expect(try store.reminderPreference() == nil)
            try store.setReminderPreference(preference)
            #expect(try store.reminderPreference() == preference)
            var changed = preference
            changed.enabled = false
            changed.style = .glow
            changed.weekdays = .all
            changed.quietStartMinute = 0
            changed.quietEndMinute = 0
            changed.updatedAt = testNow + 1
            try store.setReminderPreference(changed)
            #expect(try store.reminderPreference() == changed)
            #expect(try store.reminderPreference()?.hasQuietHours == false)
            #expect(try store.rawColumn("SELECT count(*) FROM reminder_preference") == ["1"])
        }
    }

    @Test func outOfRangeValuesAreRejected() throws {
        try withFreshStore { (store, _) throws in
            var bad = preference
            bad.minuteOfDay = 1440
            expectStoreError(.constraint) { try store.setReminderPreference(bad) }
            bad = preference
            bad.weekdays = ReminderWeekdays(rawValue: 128)
            expectStoreError(.constraint) { try store.setReminderPreference(bad) }
            bad = preference
            bad.quietEndMinute = -1
            expectStoreError(.constraint) { try store.setReminderPreference(bad) }
            #expect(try store.reminderPreference() == nil)
        }
    }
}

@Suite struct AudioLengthCacheTests {
    let record = AudioLengthRecord(path: "/usr/share/stillroom/content/breathe-5.mp3", size: 4_800_000,
                                   modificationTimeNanoseconds: 1_700_000_000_123_456_789, frames: 13_230_000,
                                   sampleRate: 44_100)

    @Test func hitsOnlyWhenSizeAndModificationTimeMatch() throws {
        try withFreshStore { (store, _) throws in
            #expect(try store.audioLength(path: record.path, size: record.size,
                                          modificationTimeNanoseconds: record.modificationTimeNanoseconds) == nil)
            try store.putAudioLength(record)
            #expect(try store.audioLength(path: record.path, size: record.size,
                                          modificationTimeNanoseconds: record.modificationTimeNanoseconds) == record)
            #expect(try store.audioLength(path: record.path, size: record.size + 1,
                                          modificationTimeNanoseconds: record.modificationTimeNanoseconds) == nil)
            #expect(try store.audioLength(path: record.path, size: record.size,
                                          modificationTimeNanoseconds: record.modificationTimeNanoseconds + 1) == nil)
        }
    }

    @Test func putReplacesAndRemoveForgets() throws {
        try withFreshStore { (store, _) throws in
            try store.putAudioLength(record)
            var rescanned = record
            rescanned.size = 5_000_000
            rescanned.modificationTimeNanoseconds += 1_000_000_000
            rescanned.frames = 14_000_000
            try store.putAudioLength(rescanned)
            #expect(try store.audioLength(path: record.path, size: record.size,
                                          modificationTimeNanoseconds: record.modificationTimeNanoseconds) == nil)
            #expect(try store.audioLength(path: record.path, size: rescanned.size,
                                          modificationTimeNanoseconds: rescanned.modificationTimeNanoseconds) == rescanned)
            #expect(try store.removeAudioLength(path: record.path))
            #expect(try store.removeAudioLength(path: record.path) == false)
        }
    }
}

@Suite struct NoticeTests {
    @Test func addListDismiss() throws {
        try withFreshStore { (store, _) throws in
            let first = try store.addNotice(kind: NoticeKind(rawValue: "download-failed"), message: "A", now: testNow)
            let second = try store.addNotice(kind: .databaseMovedAside, message: "B", now: testNow + 1)
            #expect(second.id > first.id)
            #expect(try store.notices() == [first, second])
            #expect(try store.dismissNotice(id: first.id, now: testNow + 2))
            #expect(try store.dismissNotice(id: first.id, now: testNow + 3) == false) // keeps the first dismissal
            #expect(try store.dismissNotice(id: 12345, now: testNow) == false)
            #expect(try store.notices() == [second])
            var dismissed = first
            dismissed.dismissedAt = testNow + 2
            #expect(try store.notices(includeDismissed: true) == [dismissed, second])
        }
    }

    /// The same notice still open is one card however often it comes (a reminder missed three days
    /// running piled up three); once dismissed, it may come again.
    @Test func theSameOpenNoticeIsKeptNotAddedAgain() throws {
        try withFreshStore { (store, _) throws in
            let first = try store.addNotice(kind: .reminder, message: "Time for your practice.", now: testNow)
            let again = try store.addNotice(kind: .reminder, message: "Time for your practice.", now: testNow + 86_400_000)
            #expect(again == first)
            let other = try store.addNotice(kind: .reminder, message: "Other words.", now: testNow)
            #expect(try store.notices() == [first, other])
            try store.dismissNotice(id: first.id, now: testNow + 1)
            let later = try store.addNotice(kind: .reminder, message: "Time for your practice.", now: testNow + 2)
            #expect(later.id > other.id)
            #expect(try store.notices().map(\.id) == [other.id, later.id])
        }
    }
}

@Suite struct TransactionTests {
    struct Boom: Error {}

    @Test func commitsOnReturnAndRollsBackOnThrow() throws {
        try withFreshStore { (store, _) throws in
            let value = try store.transaction {
                try store.setSetting("a", to: "1", now: testNow)
                try store.addFavorite(sessionID: "s", now: testNow)
                return 42
            }
            #expect(value == 42)
            #expect(throws: Boom.self) {
                try store.transaction {
                    try store.setSetting("b", to: "2", now: testNow)
                    try store.removeFavorite(sessionID: "s")
                    throw Boom()
                }
            }
            #expect(try store.allSettings().map(\.key) == ["a"])
            #expect(try store.isFavorite(sessionID: "s"))
        }
    }

    @Test func nestedTransactionsRollBackOnlyTheirOwnPart() throws {
        try withFreshStore { (store, sandbox) throws in
            try store.transaction {
                try store.setSetting("outer", to: "1", now: testNow)
                #expect(throws: Boom.self) {
                    try store.transaction {
                        try store.setSetting("inner-failed", to: "1", now: testNow)
                        throw Boom()
                    }
                }
                try store.transaction { try store.setSetting("inner-kept", to: "1", now: testNow) }
            }
            store.close()
            let reopened = try sandbox.open().store
            defer { reopened.close() }
            #expect(try reopened.allSettings().map(\.key) == ["inner-kept", "outer"])
        }
    }

    @Test func aFailingStatementInsideRollsBackEverything() throws {
        try withFreshStore { (store, _) throws in
            expectStoreError(.constraint) {
                try store.transaction {
                    try store.setSetting("a", to: "1", now: testNow)
                    try store.saveCheckpoint(sessionID: "s", positionFrames: -5, sampleRate: 44_100, clockTrusted: true, now: 1)
                }
            }
            #expect(try store.allSettings().isEmpty)
            // The store is usable afterwards (no transaction left open).
            try store.setSetting("b", to: "2", now: testNow)
            #expect(try store.setting("b") == "2")
        }
    }
}
