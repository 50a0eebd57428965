// Everything a store holds, read back through its public API, as one comparable value: the power-loss
// tests compare what survives a crash with what the store held after each step of a workload.

@testable import SQLiteStore
import StillroomCore

struct StoreSnapshot: Equatable, CustomStringConvertible {
    var settings: [SettingRecord]
    var favorites: [FavoriteRecord]
    var downloads: [AudioDownloadRecord]
    /// By session id, for the sessions the workload plays, plus the latest one.
    var checkpoints: [PlaybackCheckpointRecord?]
    var latestCheckpoint: PlaybackCheckpointRecord?
    var practiceRuns: [PracticeRunRecord]
    var reminder: ReminderPreferenceRecord?
    var audioLengths: [AudioLengthRecord?]
    var notices: [NoticeRecord]
    /// Whether a deletion still waits to be wiped from the files (committed with the deletion).
    var purgePending: Bool

    /// Reads `store`; `sessionIDs` and `audioFiles` name the rows the store can only be asked for one by one.
    init(_ store: SQLiteStore, sessionIDs: [String], audioFiles: [(path: String, size: Int64, mtime: Int64)]) throws {
        settings = try store.allSettings()
        favorites = try store.favorites()
        downloads = try store.downloads()
        checkpoints = try sessionIDs.map { (id) throws(StoreError) in try store.checkpoint(sessionID: id) }
        latestCheckpoint = try store.latestCheckpoint()
        practiceRuns = try store.recentPracticeRuns(limit: 10_000)
        reminder = try store.reminderPreference()
        audioLengths = try audioFiles.map { (file) throws(StoreError) in
            try store.audioLength(path: file.path, size: file.size, modificationTimeNanoseconds: file.mtime)
        }
        notices = try store.notices(includeDismissed: true)
        purgePending = try store.hasPendingPurge()
    }

    /// A short summary for failure messages.
    var description: String {
        "settings \(settings.map { "\($0.key)=\($0.value)" }), favourites \(favorites.map(\.sessionID)), "
            + "downloads \(downloads.map { "\($0.sessionID):\($0.state.rawValue)" }), "
            + "checkpoints \(checkpoints.map { $0.map { "\($0.sessionID)@\($0.positionFrames)#\($0.sequence)" } ?? "-" }), "
            + "runs \(practiceRuns.map { "\($0.id ?? 0):\($0.actualListeningSeconds)" }), "
            + "reminder \(reminder.map { "\($0.minuteOfDay)" } ?? "-"), notices \(notices.count), purge pending \(purgePending)"
    }
}
