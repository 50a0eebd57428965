@testable import SQLiteStore
import StillroomCore
import Testing

@Suite struct SettingsTests {
    @Test func getSetReplaceRemoveAndList() throws {
        try withFreshStore { (store, _) throws in
            #expect(try store.setting("volume") == nil)
            try store.setSetting("volume", to: "0.4", now: testNow)
            try store.setSetting("volume", to: "0.6", now: testNow + 5)
            try store.setSetting("large-text", to: "on", now: testNow + 6)
            #expect(try store.setting("volume") == "0.6")
            #expect(try store.allSettings() == [
                SettingRecord(key: "large-text", value: "on", updatedAt: testNow + 6),
                SettingRecord(key: "volume", value: "0.6", updatedAt: testNow + 5),
            ])
            #expect(try store.removeSetting("volume"))
            #expect(try store.removeSetting("volume") == false)
            #expect(try store.setting("volume") == nil)
        }
    }

    @Test func valuesAreStoredVerbatim() throws {
        // Bound parameters, never spliced into SQL: quotes, SQL and non-ASCII text round-trip untouched.
        try withFreshStore { (store, _) throws in
            let tricky = ["", "it's", "'); DROP TABLE setting; --", "ünïcödé ☾", "two\nlines", "nul\u{0}inside"]
            for (index, value) in tricky.enumerated() {
                try store.setSetting("k\(index)", to: value, now: testNow)
            }
            for (index, value) in tricky.enumerated() {
                #expect(try store.setting("k\(index)") == value)
            }
            #expect(try store.allSettings().count == tricky.count)
        }
    }
}

@Suite struct FavoritesTests {
    @Test func addRemoveListAndQuery() throws {
        try withFreshStore { (store, _) throws in
            #expect(try store.favorites().isEmpty)
            #expect(try store.addFavorite(sessionID: "breathe-5", now: testNow))
            #expect(try store.addFavorite(sessionID: "focus-10", now: testNow + 1000))
            #expect(try store.isFavorite(sessionID: "breathe-5"))
            #expect(try store.isFavorite(sessionID: "unwind-12") == false)
            #expect(try store.favorites().map(\.sessionID) == ["focus-10", "breathe-5"])
            #expect(try store.removeFavorite(sessionID: "breathe-5"))
            #expect(try store.removeFavorite(sessionID: "breathe-5") == false)
            #expect(try store.favorites() == [FavoriteRecord(sessionID: "focus-10", createdAt: testNow + 1000)])
        }
    }

    @Test func addingTwiceKeepsTheFirstDate() throws {
        try withFreshStore { (store, _) throws in
            #expect(try store.addFavorite(sessionID: "breathe-5", now: testNow))
            #expect(try store.addFavorite(sessionID: "breathe-5", now: testNow + 99) == false)
            #expect(try store.favorites() == [FavoriteRecord(sessionID: "breathe-5", createdAt: testNow)])
        }
    }

    @Test func equalDatesListNewestAddedFirst() throws {
        // An unsynchronised clock can hand out the same time twice.
        try withFreshStore { (store, _) throws in
            for id in ["a", "b", "c"] { try store.addFavorite(sessionID: id, now: 0) }
            #expect(try store.favorites().map(\.sessionID) == ["c", "b", "a"])
        }
    }
}

@Suite struct DownloadsTests {
    func record(_ id: String, _ state: AudioDownloadState, done: Int64 = 0) -> AudioDownloadRecord {
        AudioDownloadRecord(sessionID: id, localPath: "/var/lib/stillroom/audio/\(id).mp3", state: state,
                            bytesDone: done, bytesTotal: 10_000, sha256: String(repeating: "0f", count: 32),
                            updatedAt: testNow)
    }

    @Test func upsertGetListDelete() throws {
        try withFreshStore { (store, _) throws in
            #expect(try store.download(sessionID: "a") == nil)
            try store.upsertDownload(record("b", .queued))
            try store.upsertDownload(record("a", .downloading, done: 512))
            var failed = record("b", .failed, done: 2048)
            failed.error = "Not enough free space (needs 10 kB more)"
            failed.updatedAt = testNow + 10
            try store.upsertDownload(failed)
            #expect(try store.download(sessionID: "b") == failed)
            #expect(try store.downloads().map(\.sessionID) == ["a", "b"])
            #expect(try store.deleteDownload(sessionID: "a"))
            #expect(try store.deleteDownload(sessionID: "a") == false)
            #expect(try store.downloads() == [failed])
        }
    }

    @Test func everyStateRoundTripsAndOptionalFieldsMayBeNil() throws {
        try withFreshStore { (store, _) throws in
            for state in AudioDownloadState.allCases {
                let minimal = AudioDownloadRecord(sessionID: state.rawValue, localPath: "/x", state: state, updatedAt: 1)
                try store.upsertDownload(minimal)
                #expect(try store.download(sessionID: state.rawValue) == minimal)
            }
        }
    }

    @Test func negativeByteCountsAreRejected() throws {
        try withFreshStore { (store, _) throws in
            expectStoreError(.constraint) { try store.upsertDownload(record("a", .downloading, done: -1)) }
            #expect(try store.downloads().isEmpty)
        }
    }

    @Test func anUnknownStoredStateIsInvalidData() throws {
        try withFreshStore { (store, _) throws in
            try store.upsertDownload(record("a", .queued))
            // The CHECK stops this in normal use; a foreign tool could still do it with checks switched off.
            try store.rawExec("PRAGMA ignore_check_constraints = ON")
            try store.rawExec("UPDATE audio_download SET state = 'paused'")
            let error = expectStoreError(.invalidData) { _ = try store.download(sessionID: "a") }
            #expect(error?.message.contains("paused") == true)
        }
    }
}
