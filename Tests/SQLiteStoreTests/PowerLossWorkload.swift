// A scripted day of the box's database traffic, for the power-loss tests: the daemon creating its
// database, settings, favourites, a reminder, a download, notices, two sessions played with a checkpoint
// and practice-run update every "10 s" (grouped in one transaction, as the daemon does), a session
// finishing, a daemon restart, history deleted and purged (checkpoint, VACUUM, WAL truncate). 122 steps:
// after the restart, enough WAL frames to pass wal_autocheckpoint (100 pages, as PowerLossHarness sets it)
// and restart the -wal.
//
// Deterministic: the same steps write the same rows every run, so a crashed run can be compared with a
// reference run step by step.

@testable import SQLiteStore
import StillroomCore

/// The box's database as the workload drives it: the open store, and the state the daemon keeps.
final class ScriptedBox {
    let path: String
    /// How every (re)open goes: through the crash layer, and what the store does itself after creating.
    let open: (String, UnixMilliseconds) throws -> SQLiteStore
    private(set) var store: SQLiteStore?
    var runID: Int64?
    var noticeID: Int64?

    init(path: String, open: @escaping (String, UnixMilliseconds) throws -> SQLiteStore) {
        self.path = path
        self.open = open
    }

    func openStore(now: UnixMilliseconds) throws { store = try open(path, now) }

    /// The daemon stopping cleanly (close checkpoints and deletes the -wal) and starting again.
    func restart(now: UnixMilliseconds) throws {
        store?.close()
        store = nil
        store = try open(path, now)
    }

    func close() {
        store?.close()
        store = nil
    }

    var live: SQLiteStore {
        get throws {
            guard let store else { throw RawError(message: "the store is not open") }
            return store
        }
    }
}

/// One step: a commit (or one transaction of several writes), an open, or a restart.
struct WorkloadStep {
    let name: String
    let run: (ScriptedBox, UnixMilliseconds) throws -> Void
}

enum PowerLossWorkload {
    static let sessions = ["dawn", "rain"]
    static let audioFiles: [(path: String, size: Int64, mtime: Int64)] = [
        ("/data/audio/rain.mp3", 2_400_000, 1_700_000_000_000_000_000),
    ]
    static let sampleRate = 48_000

    /// Step i runs at `start + i × 10 s`.
    static func time(ofStep index: Int) -> UnixMilliseconds { testNow + Int64(index) * 10_000 }

    static var steps: [WorkloadStep] {
        var steps: [WorkloadStep] = [WorkloadStep(name: "open (create, migrate)") { box, now in try box.openStore(now: now) }]
        func add(_ name: String, _ run: @escaping (SQLiteStore, ScriptedBox, UnixMilliseconds) throws -> Void) {
            steps.append(WorkloadStep(name: name) { box, now in try run(try box.live, box, now) })
        }
        add("setting volume") { store, _, now in try store.setSetting("volume", to: "0.5", now: now) }
        add("setting last session") { store, _, now in try store.setSetting("last-session", to: "dawn", now: now) }
        add("reminder") { store, _, now in
            try store.setReminderPreference(ReminderPreferenceRecord(
                enabled: true, minuteOfDay: 7 * 60, weekdays: ReminderWeekdays(rawValue: 0b0111110), style: .chime,
                quietStartMinute: 22 * 60, quietEndMinute: 7 * 60, updatedAt: now))
        }
        add("favourite dawn") { store, _, now in try store.addFavorite(sessionID: "dawn", now: now) }
        add("favourite rain") { store, _, now in try store.addFavorite(sessionID: "rain", now: now) }
        let progress: [(AudioDownloadState, Int64)] = [
            (.queued, 0), (.downloading, 900_000), (.downloading, 1_800_000), (.complete, 2_400_000),
        ]
        for (state, done) in progress {
            add("download rain \(state.rawValue) \(done)") { store, _, now in
                try store.upsertDownload(AudioDownloadRecord(
                    sessionID: "rain", localPath: "/data/audio/rain.mp3", state: state, bytesDone: done,
                    bytesTotal: 2_400_000, sha256: String(repeating: "ab", count: 32), updatedAt: now))
            }
        }
        add("audio length") { store, _, _ in
            let file = audioFiles[0]
            try store.putAudioLength(AudioLengthRecord(path: file.path, size: file.size, modificationTimeNanoseconds: file.mtime,
                                                       frames: 120 * Int64(sampleRate), sampleRate: sampleRate))
        }
        add("notice") { store, box, now in
            box.noticeID = try store.addNotice(kind: NoticeKind(rawValue: "download-finished"), message: "Rain is ready.", now: now).id
        }
        playing("dawn", ticks: 1...10, recordingSeconds: 900, into: &steps)
        add("unfavourite rain") { store, _, _ in try store.removeFavorite(sessionID: "rain") }
        add("setting volume again") { store, _, now in try store.setSetting("volume", to: "0.3", now: now) }
        add("dismiss notice") { store, box, now in try store.dismissNotice(id: box.noticeID ?? 0, now: now) }
        steps.append(WorkloadStep(name: "daemon restart") { box, now in try box.restart(now: now) })
        // Long enough after the restart's fresh -wal for the automatic checkpoint (100 pages here) to run.
        playing("dawn", ticks: 11...90, recordingSeconds: 900, into: &steps)
        add("dawn finished") { store, box, now in
            try store.transaction {
                try store.clearCheckpoint(sessionID: "dawn")
                try store.updatePracticeRun(run(id: box.runID, session: "dawn", tick: 90, recordingSeconds: 900, completedAt: now))
            }
            box.runID = nil
        }
        playing("rain", ticks: 1...8, recordingSeconds: 120, into: &steps)
        add("delete the first run") { store, _, _ in try store.deletePracticeRun(id: 1) }
        add("purge deleted data") { store, _, _ in _ = try store.finishPendingPurge(availableBytes: nil) }
        add("setting after purge") { store, _, now in try store.setSetting("last-session", to: "rain", now: now) }
        playing("rain", ticks: 9...12, recordingSeconds: 120, into: &steps)
        return steps
    }

    /// Every 10 s of playback: the checkpoint and the practice run in one transaction (one fsync).
    private static func playing(_ session: String, ticks: ClosedRange<Int>, recordingSeconds: Double, into steps: inout [WorkloadStep]) {
        for tick in ticks {
            steps.append(WorkloadStep(name: "\(session) checkpoint \(tick * 10) s") { box, now in
                let store = try box.live
                try store.transaction {
                    try store.saveCheckpoint(sessionID: session, positionFrames: Int64(tick * 10 * sampleRate),
                                             sampleRate: sampleRate, clockTrusted: true, now: now)
                    let record = run(id: box.runID, session: session, tick: tick, recordingSeconds: recordingSeconds, now: now)
                    if box.runID != nil {
                        try store.updatePracticeRun(record)
                    } else {
                        box.runID = try store.insertPracticeRun(record).id
                    }
                }
            })
        }
    }

    private static func run(
        id: Int64?, session: String, tick: Int, recordingSeconds: Double, now: UnixMilliseconds = 0,
        completedAt: UnixMilliseconds? = nil
    ) -> PracticeRunRecord {
        let heard = Double(tick * 10)
        return PracticeRunRecord(
            id: id, sessionID: session, startedAt: testNow, actualListeningSeconds: heard, coveredSeconds: heard,
            coveredRanges: [CoveredRange(start: 0, end: heard)], recordingSeconds: recordingSeconds,
            completedAt: completedAt, clockTrusted: true, updatedAt: completedAt ?? now)
    }
}
