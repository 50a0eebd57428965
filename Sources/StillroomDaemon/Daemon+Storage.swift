import ControlProtocol
import CurlDownloader
import FoundationEssentials
import Glibc
import SQLiteStore
import StillroomCore
import SystemCalls

/// A card that cannot be written must never silence the box. ext4 remounts itself read-only after a card
/// error; a downgraded firmware meets a database from a newer one; a card can be too full to create the
/// database at first boot. In each case the box starts (or keeps running), plays what is on it, reads what
/// it can, and says — on the screen, aloud when spoken labels are on, in `status` and `doctor` — that
/// nothing new can be kept.
extension Daemon {
    /// What the screen and the voice say when nothing can be saved.
    static let storageNoticeMessage = "The memory card cannot be written, so nothing new can be kept: not your place in a "
        + "session, your practice, favourites or settings. Sessions on the box still play. The card may be failing; "
        + "a maintainer can see what is wrong with stillroomctl doctor."

    /// Why the data folder cannot be written, or nil when it can (it is made if missing).
    static func dataDirectoryProblem(_ path: String) -> String? {
        do throws(SystemError) {
            try Files.makeDirectories(path, mode: 0o750)
        } catch {
            return "the data folder \(path) cannot be created (\(error.path ?? path): \(error.reason))"
        }
        guard Files.isDirectory(path) else { return "the data folder \(path) is not a folder" }
        // A write, not access(2): after an ext4 error the kernel refuses writes (emergency read-only) while
        // access(W_OK) and statvfs still say the file system is writable.
        let probe = path + "/.write-probe"
        do throws(SystemError) {
            try FileDescriptor.open(probe, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600).close()
        } catch {
            return "the data folder \(path) cannot be written (\(error.reason))"
        }
        unlink(probe)
        return nil
    }

    /// The room kept for the database: kept, made, or given back to it on a full card. Returns whether it
    /// is on the card now.
    @discardableResult
    static func keepRoomForTheDatabase(_ options: DaemonOptions, logger: Logger) -> Bool {
        switch RoomKeptForTheDatabase.prepare(inDataDirectory: options.dataDirectory) {
        case .kept: return true
        case .made:
            logger.info("storage: kept \(RoomKeptForTheDatabase.bytes / 1024) KiB for the database, to give it at a start on a full card")
            return true
        case .none: return false
        case .givenBack(let available):
            logger.notice("storage: the card is full (\(available) bytes free): gave the database the "
                + "\(RoomKeptForTheDatabase.bytes / 1024) KiB kept for it, so the box can still save and make room")
            return false
        case .failed(let why):
            logger.warning("storage: no room kept for the database: \(why)")
            return false
        }
    }

    /// Opens the database for writing; when that cannot be done, for reading (what was saved still shows:
    /// history, settings, the place to resume); when even that fails, an empty one in memory. The second
    /// value says why nothing can be saved, or is nil.
    static func openStore(_ options: DaemonOptions, dataProblem: String?, logger: Logger, now: Date) -> (SQLiteStore, String?) {
        let path = databasePath(options)
        var problem = dataProblem
        if problem == nil {
            do {
                let opened = try SQLiteStore.open(path: path, now: UnixMilliseconds(date: now))
                switch opened.outcome {
                case .movedAside: logger.error("database: \(opened.outcome)")
                default: logger.info("database: \(opened.outcome)")
                }
                return (opened.store, nil)
            } catch {
                logger.error("database: \(path) cannot be opened for writing: \(error)")
                // With no room for its -shm SQLite reports an I/O error (SQLITE_IOERR_SHMSIZE), not
                // SQLITE_FULL: on a card with no room left that is a full card, not a failing one.
                let why = cardIsFull(options) ? "the card is full" : storageWords(error)
                problem = "the database \(path) cannot be opened for writing: \(why)"
            }
        }
        logger.error("storage: \(problem!); nothing can be saved until this is put right")
        if let store = try? SQLiteStore.openReadOnly(path: path) {
            logger.notice("database: opened read-only; what was saved before still shows")
            return (store, problem)
        }
        do {
            logger.notice("database: nothing could be read; starting with empty data in memory")
            return (try SQLiteStore.openEmptyReadOnly(), problem)
        } catch {
            // SQLite could not even make a database in memory: nothing on this box would work.
            fatalError("cannot open a database in memory: \(error)")
        }
    }

    /// A write to the store failed: logged, and if the card has become read-only or full since start, said
    /// (a full card still passes the write probe: an empty file needs no block).
    func storeWriteFailed(_ error: any Error, _ what: String) {
        logger.error("\(what) not saved: \(error)")
        guard storage.problem == nil else { return }
        if let problem = Self.dataDirectoryProblem(options.dataDirectory) {
            storage.problem = problem
            logger.error("storage: \(problem); nothing can be saved until this is put right")
        } else if (error as? StoreError)?.kind == .diskFull {
            let free = DownloadManager.availableBytes(at: options.dataDirectory).map { " (\(ByteCountText.text($0)) free)" } ?? ""
            storage.problem = "the card is full\(free): the \(what) could not be saved"
            storage.filledWhileRunning = true
            logger.error("storage: \(storage.problem!); nothing new is kept until there is room")
        } else {
            return
        }
        announceStorageProblem()
    }

    /// A save reached the card: a card that had filled while running has room again, and the room given
    /// back to the database at a start on a full card is made again when the card can spare it. Not only at
    /// the next start: a box that fills its card twice with a power cut each time would otherwise find none
    /// to give the second time, and open its database read-only for as long as it then runs (lifesim, seeds
    /// 57 and 79: days of practice unkept on a card that had room).
    func storeWriteWentThrough() {
        // A commit can still fit in blocks the -wal already has on a card with no byte free: that is no
        // room. Judged by the card's free space, not by one save, the notice does not come and go with
        // every checkpoint that happened to fit (lifesim, seed 33: "The memory card is full" said twice).
        if storage.filledWhileRunning, !Self.cardIsFull(options) {
            storage.filledWhileRunning = false
            storage.problem = nil
            logger.notice("storage: the card has room again; saving as before")
            refreshModel()
        }
        if !storage.roomKept, storage.problem == nil {
            storage.roomKept = Self.keepRoomForTheDatabase(options, logger: logger)
        }
    }

    /// The database was opened read-only at a start on a full card (or could not be read at all then). Once
    /// the card has room it is opened for writing in place, since every part of the daemon holds the one
    /// store: practice, places and settings are kept again without waiting for a restart (lifesim, seeds 44
    /// and 47: days of practice unkept on a card emptied under a running box). Looked at before each event
    /// and command while that lasts (a statfs); tried once each time the card is seen to have room again.
    func reopenStoreIfTheCardHasRoom() {
        guard storage.problemOnAFullCard, store.isReadOnly else { return }
        let full = Self.cardIsFull(options)
        defer { storage.cardFullAtLastLook = full }
        guard !full, storage.cardFullAtLastLook else { return }
        let outcome: OpenOutcome
        do {
            outcome = try store.becomeWriter(path: Self.databasePath(options), now: wallMilliseconds)
        } catch {
            logger.error("database: the card has room, but the database still cannot be opened for writing: \(error)")
            return
        }
        logger.notice("storage: the card has room again; database \(outcome), saving as before")
        storage.problem = nil
        storage.problemOnAFullCard = false
        modelSources.storeChanged = true // a database moved aside or made anew reads differently
        storeWriteWentThrough() // keeps the room for the database again
        _ = finishPendingPurge(after: "the card had room again")
        refreshModel()
    }

    /// Shows the notice (the model picks it up); the interface says it once when spoken labels are on, held
    /// back while a recording plays (Interface.announceNotices).
    func announceStorageProblem() {
        refreshModel()
    }

    /// The live notice for the screen while the problem stands (Daemon+LiveNotices).
    var storageProblemStanding: LiveNotices.Standing? {
        guard storage.problem != nil else { return nil }
        if storage.filledWhileRunning || storage.problemOnAFullCard {
            return LiveNotices.Standing(.storage, kind: .storageFull, message: Self.storageFullNoticeMessage)
        }
        return LiveNotices.Standing(.storage, kind: .storageReadOnly, message: Self.storageNoticeMessage)
    }

    static let storageFullNoticeMessage = "The memory card is full, so what happens now is not kept: your place in a session, "
        + "your practice and changes wait until there is room. Sessions on the box still play."

    /// Too full for the database to open for writing (less than the room the daemon keeps for it).
    static func cardIsFull(_ options: DaemonOptions) -> Bool {
        (DownloadManager.availableBytes(at: options.dataDirectory) ?? Int64.max) < RoomKeptForTheDatabase.fullBelow
    }

    /// The `doctor` line for storage.
    func storageCheck() -> DoctorReport.Check {
        let problem = storage.problem ?? Self.dataDirectoryProblem(options.dataDirectory)
        let fix = if Self.cardIsFull(options) {
            "the card is full: remove what was copied into \(options.dataDirectory) by hand, or downloaded sessions you no "
                + "longer need, then restart stillroomd (systemctl restart stillroom); sessions still play meanwhile"
        } else if storage.problemOnAFullCard {
            "the card was full when stillroomd started and has room now, but the database would not open for writing "
                + "(see the journal: journalctl -u stillroom); restart it (systemctl restart stillroom)"
        } else {
            "the card is read-only or failing (see dmesg for ext4 or mmc errors): back up \(options.dataDirectory), check or "
                + "replace the card; sessions still play meanwhile"
        }
        return DoctorReport.Check("storage", ok: problem == nil, detail: problem ?? "\(options.dataDirectory) can be written",
                                  fix: problem == nil ? "" : fix)
    }
}
