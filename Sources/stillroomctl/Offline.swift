import CLinuxShims
import ControlProtocol
import Glibc
import SQLiteStore
import StillroomCore
import SystemCalls

/// A failure answering from the files: what to do, and the exit status. Printed, it is its message.
struct OfflineError: Error, CustomStringConvertible {
    let message: String
    let status: ExitStatus
    var description: String { message }
}

/// Read-only answers from the database (opened read-only) and the content folder, for when the daemon
/// is down: the box can still be inspected.
struct Offline {
    let invocation: Invocation

    init(_ invocation: Invocation) {
        self.invocation = invocation
        Self.actAsTheDataFolderOwner(invocation.dataDirectory)
    }

    /// Root reads the daemon's files as their owner, never as root: the daemon may have put a link where root
    /// would write (the doctor's `.write-probe`) or a crafted database before SQLite's parser, and SQLite would
    /// leave root-owned files (a `-shm`) in the daemon's folder (docs/security.md, "Root's CLI"). When root
    /// runs this and the data folder is another user's, the process becomes that user, for good: it only
    /// reads and prints from here on. A folder of root's (a developer's machine) changes nothing.
    static func actAsTheDataFolderOwner(_ folder: String) {
        guard geteuid() == 0 else { return }
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid != 0 else { return }
        guard setgroups(0, nil) == 0, setgid(info.st_gid) == 0, setuid(info.st_uid) == 0 else {
            fail("cannot read \(folder) as its owner (uid \(info.st_uid)): \(SystemError("setuid").reason); start the daemon instead", .failed)
        }
    }

    /// The last checkpoint's session and place, and the open notices; the rest only the daemon knows.
    func status() throws -> JSONValue {
        var status = StatusReport(state: .stopped, session: nil, title: nil, position: 0, duration: 0, resumeOffer: nil,
                                  lastCheckpoint: nil, notices: [], live: nil)
        guard let store = try? SQLiteStore.openReadOnly(path: invocation.dataDirectory + "/stillroom.db") else { return status.json }
        defer { store.close() }
        if let checkpoint = try store.latestCheckpoint() {
            let seconds = (checkpoint.positionSeconds * 1000).rounded() / 1000
            status.session = checkpoint.sessionID
            status.position = seconds
            status.lastCheckpoint = StatusReport.Checkpoint(session: checkpoint.sessionID, position: seconds)
            if let catalog = try? loadCatalog(), let id = try? ContentID(validating: checkpoint.sessionID),
               let session = catalog.session(withID: id) {
                status.title = session.title
                status.duration = session.durationSeconds
            }
        }
        status.notices = try store.notices().map { StatusReport.Notice(id: $0.id, kind: $0.kind, message: $0.message) }
        return status.json
    }

    func sessions() throws -> JSONValue {
        let catalog = try loadCatalog()
        let favorites = favoriteIDs()
        return SessionSummary.list(catalog.sessions.map { summary($0, favorite: favorites.contains($0.id.rawValue)) })
    }

    func show(_ id: String) throws -> JSONValue {
        let session = try find(id, in: try loadCatalog())
        return summary(session, favorite: favoriteIDs().contains(session.id.rawValue)).json
    }

    /// The transcript of a bundled session, from the content folder (the daemon's answer has the same shape).
    func transcript(_ id: String) throws -> JSONValue {
        let session = try find(id, in: try loadCatalog())
        guard case .bundled(let path) = session.transcript else {
            throw OfflineError(message: "the transcript of \(id) is downloaded with the session; start the daemon to read it", status: .failed)
        }
        let bytes = try readFile(invocation.contentDirectory + "/" + path.rawValue)
        do {
            return TranscriptReport(session: session.id.rawValue, title: session.title, source: .bundled,
                                    transcript: try WebVTTParser.parse(bytes, fileName: path.rawValue)).json
        } catch {
            throw OfflineError(message: "\(error)", status: .failed)
        }
    }

    func settings() throws -> JSONValue {
        var stored: [String: String] = [:]
        if let store = try? SQLiteStore.openReadOnly(path: invocation.dataDirectory + "/stillroom.db") {
            for record in (try? store.allSettings()) ?? [] { stored[record.key] = record.value }
            store.close()
        }
        return SettingsReport(Settings(stored: stored)).json
    }

    /// The reminder as stored (when it fires next, and whether it waits or shows, only the daemon knows).
    func reminder() throws -> JSONValue {
        guard let store = try? SQLiteStore.openReadOnly(path: invocation.dataDirectory + "/stillroom.db") else {
            return ReminderReport(nil, next: nil, waiting: nil, card: nil).json
        }
        defer { store.close() }
        return ReminderReport(try store.reminderPreference(), next: nil, waiting: nil, card: nil).json
    }

    /// The download records (the daemon, when up, adds live progress).
    func downloads() throws -> JSONValue {
        guard let store = try? SQLiteStore.openReadOnly(path: invocation.dataDirectory + "/stillroom.db") else {
            return DownloadsReport(downloads: [], sources: []).json
        }
        defer { store.close() }
        return DownloadsReport(downloads: try store.downloads().map { DownloadReport(DownloadStatus(record: $0)) }, sources: []).json
    }

    /// History from the database: the same report the daemon gives.
    func history(_ request: ControlCommand.HistoryRequest) throws -> JSONValue {
        guard let store = try? SQLiteStore.openReadOnly(path: invocation.dataDirectory + "/stillroom.db") else {
            throw OfflineError(message: "no practice history yet (no database in \(invocation.dataDirectory))", status: .failed)
        }
        defer { store.close() }
        let runs = try store.recentPracticeRuns(limit: Int.max)
        var stored: [String: String] = [:]
        for record in (try? store.allSettings()) ?? [] { stored[record.key] = record.value }
        let settings = Settings(stored: stored)
        let zone = (try? readFile("/etc/localtime")).flatMap { try? TimeZoneRules(tzif: $0) } ?? .utc
        let boundary = PracticeDayBoundary(settingValue: settings.value(of: "day-boundary")) ?? .standard
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let history = PracticeHistory(runs: runs, calendar: PracticeCalendar(timeZone: zone, dayBoundary: boundary),
                                      now: UnixMilliseconds(now.tv_sec) * 1000)
        switch request {
        case .recent:
            let titles = ((try? loadCatalog())?.sessions ?? []).reduce(into: [String: String]()) { $0[$1.id.rawValue] = $1.title }
            return RecentRunsReport(history, titles: titles).json
        case .export(let format):
            return HistoryExportReport(text: format == .csv ? history.exportCSV() : history.exportJSONText()).json
        case .month(let asked):
            let month = asked ?? history.today?.civilMonth ?? CivilDate(daysSinceEpoch: Int64(now.tv_sec / 86_400)).civilMonth
            return HistoryMonthReport(history, month, showStreak: settings.showStreak).json
        case .deleteRun, .deleteAll:
            throw OfflineError(message: "deleting history needs the daemon; start it with: systemctl start stillroom", status: .unreachable)
        }
    }

    /// The checks that need no daemon: the database, the content, the disk; and the daemon itself.
    func doctor() throws -> JSONValue {
        var checks = [DoctorReport.Check("daemon", ok: false, detail: "not running", fix: "systemctl start stillroom; see journalctl -u stillroom")]
        let database = invocation.dataDirectory + "/stillroom.db"
        if let store = try? SQLiteStore.openReadOnly(path: database) {
            let findings = ((try? store.quickCheck()) ?? ["quick_check could not run"]).filter { $0 != "ok" }
            store.close()
            checks.append(DoctorReport.Check("database", ok: findings.isEmpty, detail: findings.isEmpty ? "quick_check ok" : findings.joined(separator: "; "),
                                             fix: "start stillroomd: it moves a damaged database aside and starts fresh"))
        } else {
            checks.append(DoctorReport.Check("database", ok: false, detail: "\(database) cannot be opened",
                                             fix: "start stillroomd once to create it; check the data folder's permissions"))
        }
        do {
            let parsed = CatalogParser.parseCatalog(try readFile(invocation.contentDirectory + "/catalog.json"), fileName: "catalog.json")
            checks.append(DoctorReport.Check("content", ok: parsed.problems.isEmpty,
                                             detail: "\(parsed.catalog.sessions.count) sessions" + (parsed.problems.first.map { "; \($0)" } ?? ""),
                                             fix: "reinstall the content package"))
        } catch {
            checks.append(DoctorReport.Check("content", ok: false, detail: "\(error)", fix: "reinstall the content package"))
        }
        checks.append(storageCheck())
        checks.append(dataStorageCheck())
        let free = Files.availableBytes(invocation.dataDirectory) ?? 0
        checks.append(DoctorReport.Check("disk space", ok: free >= 64 << 20, detail: "\(free >> 20) MB free", fix: "remove downloaded sessions to make room"))
        return DoctorReport(checks: checks, ok: false).json
    }

    /// Whether the data folder outlives a power-off (not in RAM: the data partition mounted).
    func dataStorageCheck() -> DoctorReport.Check {
        let path = invocation.dataDirectory
        let verdict: DataStorageVerdict
        do throws(SystemError) {
            verdict = DataStorageVerdict(fileSystemMagic: try Files.fileSystemType(path), path: path)
        } catch {
            verdict = DataStorageVerdict(path: path, unknownBecause: error.reason)
        }
        return DoctorReport.Check("data storage", ok: verdict.ok, detail: verdict.detail, fix: verdict.fix)
    }

    /// Whether the data folder takes a write: a file made and removed (after an ext4 error the kernel
    /// refuses writes while access(2) still says yes).
    func storageCheck() -> DoctorReport.Check {
        let probe = invocation.dataDirectory + "/.write-probe"
        var problem: String?
        do throws(SystemError) {
            try FileDescriptor.open(probe, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600).close()
            unlink(probe)
        } catch {
            problem = error.reason
        }
        return DoctorReport.Check("storage", ok: problem == nil,
                                  detail: problem.map { "\(invocation.dataDirectory) cannot be written: \($0)" } ?? "\(invocation.dataDirectory) can be written",
                                  fix: problem == nil ? "" : "the card is read-only or failing (see dmesg): back up the data folder, check or replace the card")
    }

    // MARK: Pieces

    private func loadCatalog() throws -> Catalog {
        let bytes = try readFile(invocation.contentDirectory + "/catalog.json")
        return CatalogParser.parseCatalog(bytes, fileName: "catalog.json").catalog
    }

    private func find(_ raw: String, in catalog: Catalog) throws -> Session {
        guard let id = try? ContentID(validating: raw), let session = catalog.session(withID: id) else {
            throw OfflineError(message: "no session \"\(raw)\" on this box; see stillroomctl sessions", status: .notFound)
        }
        return session
    }

    private func favoriteIDs() -> Set<String> {
        guard let store = try? SQLiteStore.openReadOnly(path: invocation.dataDirectory + "/stillroom.db") else { return [] }
        defer { store.close() }
        return Set(((try? store.favorites()) ?? []).map(\.sessionID))
    }

    /// The session as the daemon would answer it, but for what only the daemon knows: the length is the
    /// catalog's (`durationMeasured` false: the CLI does not decode audio) and there is no download.
    private func summary(_ session: Session, favorite: Bool) -> SessionSummary {
        SessionSummary(session, measuredSeconds: nil, favorite: favorite, download: nil)
    }

    func readFile(_ path: String) throws -> [UInt8] { try Self.readFile(path) }

    static func readFile(_ path: String) throws -> [UInt8] {
        do throws(SystemError) {
            return try Files.readAll(path, limit: 64 << 20) // a catalog or a transcript: far below this
        } catch {
            throw OfflineError(message: "\(path): \(error.reason)", status: .failed)
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
