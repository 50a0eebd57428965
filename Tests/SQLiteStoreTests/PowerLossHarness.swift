// Runs the scripted workload through the crash layer (Tests/CCrashVFS), cuts the power at the chosen
// point, closes the crashed store, and reopens the files as the next boot would: the real SQLiteStore.open
// on the ordinary VFS.

import CCrashVFS
import CSQLite
import Glibc
@testable import SQLiteStore
import StillroomCore
import SystemCalls
import Testing
import TestSupport

/// Where the power goes.
enum CrashPoint: CustomStringConvertible {
    /// After the workload's last step.
    case afterLastStep
    /// When the nth xSync is called (1-based), before it takes effect.
    case atSync(Int64)
    /// When the nth xWrite or xTruncate is called, before it takes effect.
    case atWrite(Int64)

    var description: String {
        switch self {
        case .afterLastStep: return "after the last step"
        case .atSync(let n): return "sync #\(n)"
        case .atWrite(let n): return "write #\(n)"
        }
    }
}

struct CrashScenario: CustomStringConvertible {
    var point: CrashPoint
    var loss: crashvfs_loss = crashvfs_loss_all
    var seed: UInt64 = 1

    var description: String {
        let lossName = loss == crashvfs_loss_all ? "all unsynced lost"
            : loss == crashvfs_loss_torn_prefix ? "torn prefix" : "torn scattered"
        return "\(point), \(lossName), seed \(seed)"
    }
}

/// What one run did, and what the next boot found.
struct CrashRun {
    /// Steps that returned before the power went: their commits were acknowledged.
    var acknowledgedSteps = 0
    var syncs: Int64 = 0
    var writes: Int64 = 0
    var databaseSyncs: Int64 = 0
    /// File creations or deletions the crash undid (their directory was not fsynced yet).
    var directoryChangesUndone = 0
    /// The store after each acknowledged step (reference runs only).
    var statesAfterStep: [StoreSnapshot] = []
    var recoveredOutcome: OpenOutcome?
    var recovered: StoreSnapshot?
    var integrity: [String] = []
}

enum PowerLossHarness {
    /// Runs the workload with `scenario`'s crash and recovers. `recordStates` snapshots the live store after
    /// every step (the reference run), which only reads.
    ///
    /// `weakerSynchronous` ("NORMAL", "OFF") replaces the store's synchronous=FULL after every open: only for
    /// the control that shows the sweep catches a wrong setting.
    ///
    /// The -shm is left as the crashed process left it (possibly ahead of the -wal that reached the disk)
    /// unless `keepSharedMemory` is false, which removes it before the next boot, as if none of its pages
    /// had been written back.
    static func run(
        _ scenario: CrashScenario, recordStates: Bool = false, weakerSynchronous: String? = nil,
        keepSharedMemory: Bool = true
    ) throws -> CrashRun {
        try #require(crashvfs_register() == SQLITE_OK, "the crash VFS could not be registered")
        crashvfs_reset()
        switch scenario.point {
        case .afterLastStep: break
        case .atSync(let n): crashvfs_plan_crash_at_sync(n, scenario.loss, scenario.seed)
        case .atWrite(let n): crashvfs_plan_crash_at_write(n, scenario.loss, scenario.seed)
        }
        let sandbox = RamSandbox()
        defer { sandbox.remove() }
        let box = ScriptedBox(path: sandbox.file("stillroom.db")) { path, now in
            let opened = try SQLiteStore.open(path: path, now: now, testVFS: CRASHVFS_NAME)
            switch opened.outcome {
            case .created, .movedAside:
                // The store fsyncs the directory after creating the file (FileSystem.syncDirectory): a plain
                // fsync(2) the layer cannot see, so it is told.
                if crashvfs_has_crashed() == 0 { crashvfs_directory_synced(path) }
            case .opened, .migrated: break
            }
            // The automatic checkpoint at 100 pages instead of the store's 800 (of 1 KiB): at two pages a
            // playback checkpoint the scripted day then reaches one. When it runs does not change how it is
            // written.
            try opened.store.rawExec("PRAGMA wal_autocheckpoint = 100")
            if let weakerSynchronous { try opened.store.rawExec("PRAGMA synchronous = \(weakerSynchronous)") }
            return opened.store
        }

        var result = CrashRun()
        let steps = PowerLossWorkload.steps
        for (index, step) in steps.enumerated() {
            do {
                try step.run(box, PowerLossWorkload.time(ofStep: index))
            } catch where crashvfs_has_crashed() != 0 {
                break // The step in flight when the power went: not acknowledged.
            }
            // A step that returned although the disk went during it (an error SQLite chose to ignore) is
            // not counted as acknowledged either.
            if crashvfs_has_crashed() != 0 { break }
            result.acknowledgedSteps = index + 1
            if recordStates { result.statesAfterStep.append(try snapshot(box.live)) }
        }
        if crashvfs_has_crashed() == 0 { crashvfs_crash_now(scenario.loss, scenario.seed) }
        result.syncs = crashvfs_sync_count()
        result.writes = crashvfs_write_count()
        result.databaseSyncs = crashvfs_database_sync_count()
        result.directoryChangesUndone = Int(crashvfs_directory_changes_undone())
        box.close() // Its writes fail now: the disk is gone.

        if !keepSharedMemory { _ = unlink(box.path + "-shm") }

        // The next boot.
        let opened = try SQLiteStore.open(path: box.path, now: PowerLossWorkload.time(ofStep: steps.count + 1))
        defer { opened.store.close() }
        result.recoveredOutcome = opened.outcome
        result.integrity = try opened.store.rawColumn("PRAGMA integrity_check")
        result.recovered = try snapshot(opened.store)
        return result
    }

    static func snapshot(_ store: SQLiteStore) throws -> StoreSnapshot {
        try StoreSnapshot(store, sessionIDs: PowerLossWorkload.sessions, audioFiles: PowerLossWorkload.audioFiles)
    }

    /// What is wrong with a recovered run, or nil. Right means: the next boot opened the file as it was
    /// (no move-aside), the file is sound, and it holds exactly the state after the acknowledged steps, or
    /// after one more (the step in flight may have committed before the power went). Any other state is a
    /// lost acknowledged commit or a half-applied one.
    static func problem(with run: CrashRun, reference: [StoreSnapshot]) -> String? {
        if case .movedAside(let moved) = run.recoveredOutcome { return "moved aside: \(moved)" }
        if run.integrity != ["ok"] { return "integrity_check: \(run.integrity)" }
        // reference[k] is the state after k steps; the first step (open) leaves an empty store, as does nothing.
        let acknowledged = run.acknowledgedSteps
        if run.recovered == reference[acknowledged] { return nil }
        if acknowledged + 1 < reference.count && run.recovered == reference[acknowledged + 1] { return nil }
        let lastName = acknowledged > 0 ? PowerLossWorkload.steps[acknowledged - 1].name : "none"
        return "\(acknowledged) steps acknowledged (last: \(lastName)); found \(run.recovered.map(\.description) ?? "nothing"), "
            + "expected \(reference[acknowledged])"
    }

    static func expectRecovered(
        _ run: CrashRun, _ scenario: CrashScenario, reference: [StoreSnapshot],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let problem = problem(with: run, reference: reference)
        #expect(problem == nil, "\(scenario): \(problem ?? "")", sourceLocation: sourceLocation)
    }

    /// The reference run: no crash until the end, the store's state after every step.
    static func reference() throws -> (run: CrashRun, states: [StoreSnapshot]) {
        let run = try run(CrashScenario(point: .afterLastStep), recordStates: true)
        // states[k]: after k steps. Before the first step there is no file; the next boot creates an empty store.
        return (run, [run.statesAfterStep[0]] + run.statesAfterStep)
    }
}

/// A temporary directory on tmpfs (/dev/shm) when there is one. The crash layer, not the host's disk,
/// decides what is durable, so the real fsyncs underneath only cost time.
struct RamSandbox {
    let path: String

    init() {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        do throws(SystemError) {
            path = try SystemCalls.Files.makeTemporaryFolder(prefix: base + "/stillroom-powerloss-")
        } catch {
            preconditionFailure("cannot make a scratch folder: \(error)")
        }
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Removes the files in it and the directory (it has no subdirectories). Not `rm -rf`: a shell per
    /// crash point would cost more than the crash point.
    func remove() {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { _ = unlink(file(name)) }
            }
            closedir(directory)
        }
        _ = rmdir(path)
    }
}
