// Checkpoint benchmark: what one 10 s playback checkpoint costs the store, on a real file.
//
//   swift build -c release --product checkpoint-bench
//   .build/release/checkpoint-bench [DIRECTORY] [COMMITS]      defaults: /var/tmp, 300 commits
//
// Opens a fresh database in DIRECTORY (a disk, not tmpfs: fsync on tmpfs costs nothing, so say which one
// you used), then times COMMITS checkpoints the way the daemon writes them: `saveCheckpoint` (its own
// commit) followed by the practice run's `updatePracticeRun` (a second commit). Wall time per commit, as
// the loop waits for it: the fsync is the cost, and it is spent waiting on the disk, not on the CPU.
// Prints p50 / p99 / max of each; figures go to docs/performance.md ("Checkpoints"). Not a test.
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

let path = "\(directory)/checkpoint-bench-\(getpid()).db"
defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
let store: SQLiteStore
do {
    store = try SQLiteStore.open(path: path, now: 1_790_000_000_000).store
} catch {
    fail("cannot open \(path): \(error)")
}

// One 20-minute session heard from the start; each checkpoint is 10 s further on.
let sampleRate = 44_100
var run: PracticeRunRecord
do {
    run = try store.insertPracticeRun(PracticeRunRecord(
        sessionID: "steady-breath", startedAt: 1_790_000_000_000, recordingSeconds: 1200, clockTrusted: true,
        updatedAt: 1_790_000_000_000))
} catch {
    fail("cannot insert the run: \(error)")
}

var checkpointCommits: [UInt64] = []
var practiceCommits: [UInt64] = []
for index in 1...commits {
    let heard = Double(index * 10)
    let now = UnixMilliseconds(1_790_000_000_000 + Int64(index) * 10_000)
    run.actualListeningSeconds = heard
    run.coveredSeconds = heard
    run.coveredRanges = [CoveredRange(start: 0, end: heard)]
    run.updatedAt = now
    do {
        let start = monotonicNanoseconds()
        try store.saveCheckpoint(sessionID: "steady-breath", positionFrames: Int64(heard) * Int64(sampleRate),
                                 sampleRate: sampleRate, clockTrusted: true, now: now)
        let saved = monotonicNanoseconds()
        try store.updatePracticeRun(run)
        practiceCommits.append(monotonicNanoseconds() - saved)
        checkpointCommits.append(saved - start)
    } catch {
        fail("commit \(index): \(error)")
    }
}
store.close()

print("checkpoint-bench: \(commits) checkpoints into \(path)")
print("checkpoint commit:             \(summary(checkpointCommits))")
print("practice run commit:           \(summary(practiceCommits))")
print("whole checkpoint (both):       \(summary(zip(checkpointCommits, practiceCommits).map { $0 + $1 }))")
