// Checkpoint benchmark: what one 10 s playback checkpoint costs the store, on a real file.
//
//   swift build -c release --product checkpoint-bench
//   .build/release/checkpoint-bench [DIRECTORY] [COMMITS]      defaults: /var/tmp, 300 commits
//
// Opens a fresh database in DIRECTORY (a disk, not tmpfs: fsync on tmpfs costs nothing, so say which one
// you used), then times COMMITS checkpoints the way the daemon writes them: the place and the practice
// run in one transaction (`saveProgress`, one commit). Then, on another fresh database, the way it wrote
// them before issue 27: `saveCheckpoint` (its own commit) followed by `updatePracticeRun` (a second
// commit), for comparison. Wall time per commit, as the loop waits for it: the fsync is the cost, and it
// is spent waiting on the disk, not on the CPU. Also the bytes each way appended to the -wal per
// checkpoint. Prints p50 / p99 / max; figures go to docs/performance.md ("Checkpoints"). Not a test.
import Glibc
import SQLiteStore
import StillroomCore

let arguments = CommandLine.arguments
let directory = arguments.count > 1 ? arguments[1] : "/var/tmp"
let commits = arguments.count > 2 ? Int(arguments[2]) ?? 300 : 300

func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func milliseconds(_ nanoseconds: UInt64) -> String {
    let hundredths = Int((Double(nanoseconds) / 1e4).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
}

func summary(_ samples: [UInt64]) -> String {
    let sorted = samples.sorted()
    let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
    return "p50 \(milliseconds(sorted[sorted.count / 2]))  p99 \(milliseconds(p99))  max \(milliseconds(sorted[sorted.count - 1]))"
}

func fail(_ message: String) -> Never {
    var line = "checkpoint-bench: \(message)\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    exit(1)
}

/// A fresh database with one run of a 20-minute session heard from the start.
func freshStore(_ name: String) -> (SQLiteStore, PracticeRunRecord, String) {
    let path = "\(directory)/checkpoint-bench-\(getpid())-\(name).db"
    do {
        let store = try SQLiteStore.open(path: path, now: 1_790_000_000_000).store
        let run = try store.insertPracticeRun(PracticeRunRecord(
            sessionID: "steady-breath", startedAt: 1_790_000_000_000, recordingSeconds: 1200, clockTrusted: true,
            updatedAt: 1_790_000_000_000, title: "Steady breath"))
        return (store, run, path)
    } catch {
        fail("cannot open \(path) and insert the run: \(error)")
    }
}

func walBytes(_ path: String) -> Int {
    var status = stat()
    return stat(path + "-wal", &status) == 0 ? Int(status.st_size) : 0
}

let sampleRate = 44_100
func advance(_ run: inout PracticeRunRecord, to index: Int) -> (position: PlaybackPosition, now: UnixMilliseconds) {
    let heard = Double(index * 10)
    let now = UnixMilliseconds(1_790_000_000_000 + Int64(index) * 10_000)
    run.actualListeningSeconds = heard
    run.coveredSeconds = heard
    run.coveredRanges = [CoveredRange(start: 0, end: heard)]
    run.updatedAt = now
    return (PlaybackPosition(sessionID: "steady-breath", frame: Int64(heard) * Int64(sampleRate), sampleRate: sampleRate), now)
}

// Now: one transaction a checkpoint. (COMMITS stays below the automatic WAL checkpoint's 800 pages at two
// pages a commit, so the -wal's growth is what the commits appended.)
var (store, run, path) = freshStore("one")
var wholeCommits: [UInt64] = []
let walBefore = walBytes(path)
for index in 1...commits {
    let (position, now) = advance(&run, to: index)
    do {
        let start = monotonicNanoseconds()
        try store.saveProgress(ProgressSave(checkpoints: [.save(position)], runs: [run]), clockTrusted: true, now: now)
        wholeCommits.append(monotonicNanoseconds() - start)
    } catch {
        fail("commit \(index): \(error)")
    }
}
let walPerCheckpoint = (walBytes(path) - walBefore) / commits
store.close()
for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }

// Before issue 27: two commits a checkpoint (on today's store: its page size and statements).
(store, run, path) = freshStore("two")
var checkpointCommits: [UInt64] = []
var practiceCommits: [UInt64] = []
let walBeforeTwo = walBytes(path)
for index in 1...commits {
    let (position, now) = advance(&run, to: index)
    do {
        let start = monotonicNanoseconds()
        try store.saveCheckpoint(sessionID: position.sessionID, positionFrames: position.frame, sampleRate: sampleRate,
                                 clockTrusted: true, now: now)
        let saved = monotonicNanoseconds()
        try store.updatePracticeRun(run)
        practiceCommits.append(monotonicNanoseconds() - saved)
        checkpointCommits.append(saved - start)
    } catch {
        fail("commit \(index): \(error)")
    }
}
let walPerCheckpointTwo = (walBytes(path) - walBeforeTwo) / commits
store.close()
for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }

print("checkpoint-bench: \(commits) checkpoints each way into \(directory)")
print("one transaction (now):         \(summary(wholeCommits))  \(walPerCheckpoint) bytes of WAL a checkpoint")
print("before: checkpoint commit:     \(summary(checkpointCommits))")
print("before: practice run commit:   \(summary(practiceCommits))")
print("before: whole checkpoint:      \(summary(zip(checkpointCommits, practiceCommits).map { $0 + $1 }))  \(walPerCheckpointTwo) bytes of WAL a checkpoint")
