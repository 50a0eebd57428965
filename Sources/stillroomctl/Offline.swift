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

    init(_ invocation: Invocation) { self.invocation = invocation }

    func status() throws -> JSONValue {
        var status: [String: JSONValue] = [
            "state": .string("stopped"), "daemon": .bool(false), "session": .null, "title": .null,
            "position": .number(0), "duration": .number(0), "resumeOffer": .null, "lastCheckpoint": .null, "notices": .array([]),
        ]
        guard let store = try? SQLiteStore.openReadOnly(path: invocation.dataDirectory + "/stillroom.db") else {
            return .object(status)
        }
        defer { store.close() }
        if let checkpoint = try store.latestCheckpoint() {
            let seconds = (checkpoint.positionSeconds * 1000).rounded() / 1000
            status["session"] = .string(checkpoint.sessionID)
            status["position"] = .number(seconds)
            status["lastCheckpoint"] = .object(["session": .string(checkpoint.sessionID), "position": .number(seconds)])
            if let catalog = try? loadCatalog(), let id = try? ContentID(validating: checkpoint.sessionID),
               let session = catalog.session(withID: id) {
                status["title"] = .string(session.title)
                status["duration"] = .number(session.durationSeconds)
            }
        }
        status["notices"] = .array(try store.notices().map {
            .object(["id": .number(Double($0.id)), "kind": .string($0.kind.rawValue), "message": .string($0.message)])
        })
        return .object(status)
    }

    func sessions() throws -> JSONValue {
        let catalog = try loadCatalog()
        let favorites = favoriteIDs()
        return .object(["sessions": .array(catalog.sessions.map { json($0, favorite: favorites.contains($0.id.rawValue)) })])
    }

    func show(_ id: String) throws -> JSONValue {
        let session = try find(id, in: try loadCatalog())
        return json(session, favorite: favoriteIDs().contains(session.id.rawValue))
    }

    /// The transcript of a bundled session, from the content folder (the daemon's answer has the same shape).
    func transcript(_ id: String) throws -> JSONValue {
        let session = try find(id, in: try loadCatalog())
        guard case .bundled(let path) = session.transcript else {
            throw OfflineError(message: "the transcript of \(id) is downloaded with the session; start the daemon to read it", status: .failed)
        }
        let bytes = try readFile(invocation.contentDirectory + "/" + path.rawValue)
        do {
            return TranscriptReport.json(session: session.id.rawValue, title: session.title, source: "bundled",
                                         transcript: try WebVTTParser.parse(bytes, fileName: path.rawValue))
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
        let settings = Settings(stored: stored)
        return .object(["settings": .array(Settings.keys.map { key in
            .object(["key": .string(key), "value": .string(settings.value(of: key)), "about": .string(Settings.explanations[key] ?? "")])
        })])
    }

    /// The reminder as stored.
    func reminder() throws -> JSONValue {
        guard let store = try? SQLiteStore.openReadOnly(path: invocation.dataDirectory + "/stillroom.db"),
              let preference = try store.reminderPreference(), preference.enabled else {
            return .object(["enabled": false, "next": .null])
        }
        store.close()
        return .object(["enabled": true, "time": .string(Settings.clock(preference.minuteOfDay)), "style": .string(preference.style.rawValue),
                        "next": .null])
    }

    /// The download records (the daemon, when up, adds live progress).
    func downloads() throws -> JSONValue {
        guard let store = try? SQLiteStore.openReadOnly(path: invocation.dataDirectory + "/stillroom.db") else {
            return .object(["downloads": .array([])])
        }
        defer { store.close() }
        return .object(["downloads": .array(try store.downloads().map { DownloadStatus(record: $0).jsonValue })])
    }

    /// History from the database: the same report the daemon gives.
    func history(_ arguments: [String: JSONValue]) throws -> JSONValue {
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
        switch arguments["view"]?.stringValue {
        case "recent":
            let titles = ((try? loadCatalog())?.sessions ?? []).reduce(into: [String: String]()) { $0[$1.id.rawValue] = $1.title }
            return HistoryReport.recent(history, titles: titles)
        case "export":
            return .object(["text": .string(arguments["format"]?.stringValue == "csv" ? history.exportCSV() : history.exportJSONText())])
        default:
            let month = arguments["month"]?.stringValue.flatMap(HistoryReport.parseMonth) ?? history.today?.civilMonth
                ?? CivilDate(daysSinceEpoch: Int64(now.tv_sec / 86_400)).civilMonth
            return HistoryReport.month(history, month, showStreak: settings.showStreak)
        }
    }

    /// The checks that need no daemon: the database, the content, the disk; and the daemon itself.
    func doctor() throws -> JSONValue {
        var checks: [JSONValue] = [.object(["check": "daemon", "ok": false, "detail": "not running",
                                            "fix": "systemctl start stillroom; see journalctl -u stillroom"])]
        let database = invocation.dataDirectory + "/stillroom.db"
        if let store = try? SQLiteStore.openReadOnly(path: database) {
            let findings = ((try? store.quickCheck()) ?? ["quick_check could not run"]).filter { $0 != "ok" }
            store.close()
            checks.append(.object(["check": "database", "ok": .bool(findings.isEmpty),
                                   "detail": .string(findings.isEmpty ? "quick_check ok" : findings.joined(separator: "; ")),
                                   "fix": "start stillroomd: it moves a damaged database aside and starts fresh"]))
        } else {
            checks.append(.object(["check": "database", "ok": false, "detail": .string("\(database) cannot be opened"),
                                   "fix": "start stillroomd once to create it; check the data folder's permissions"]))
        }
        do {
            let parsed = CatalogParser.parseCatalog(try readFile(invocation.contentDirectory + "/catalog.json"), fileName: "catalog.json")
            checks.append(.object(["check": "content", "ok": .bool(parsed.problems.isEmpty),
                                   "detail": .string("\(parsed.catalog.sessions.count) sessions" + (parsed.problems.first.map { "; \($0)" } ?? "")),
                                   "fix": "reinstall the content package"]))
        } catch {
            checks.append(.object(["check": "content", "ok": false, "detail": .string("\(error)"), "fix": "reinstall the content package"]))
        }
        checks.append(storageCheck())
        checks.append(dataStorageCheck())
        let free = Files.availableBytes(invocation.dataDirectory) ?? 0
        checks.append(.object(["check": "disk space", "ok": .bool(free >= 64 << 20), "detail": .string("\(free >> 20) MB free"),
                               "fix": "remove downloaded sessions to make room"]))
        return .object(["checks": .array(checks), "ok": false])
    }

    /// Whether the data folder outlives a power-off (not in RAM: the data partition mounted).
    func dataStorageCheck() -> JSONValue {
        let path = invocation.dataDirectory
        let verdict: DataStorageVerdict
        do throws(SystemError) {
            verdict = DataStorageVerdict(fileSystemMagic: try Files.fileSystemType(path), path: path)
        } catch {
            verdict = DataStorageVerdict(path: path, unknownBecause: error.reason)
        }
        return .object(["check": "data storage", "ok": .bool(verdict.ok), "detail": .string(verdict.detail), "fix": .string(verdict.fix)])
    }

    /// Whether the data folder takes a write: a file made and removed (after an ext4 error the kernel
    /// refuses writes while access(2) still says yes).
    func storageCheck() -> JSONValue {
        let probe = invocation.dataDirectory + "/.write-probe"
        var problem: String?
        do throws(SystemError) {
            try FileDescriptor.open(probe, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600).close()
            unlink(probe)
        } catch {
            problem = error.reason
        }
        return .object(["check": "storage", "ok": .bool(problem == nil),
                        "detail": .string(problem.map { "\(invocation.dataDirectory) cannot be written: \($0)" } ?? "\(invocation.dataDirectory) can be written"),
                        "fix": .string(problem == nil ? "" : "the card is read-only or failing (see dmesg): back up the data folder, check or replace the card")])
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

    private func json(_ session: Session, favorite: Bool) -> JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(session.id.rawValue), "title": .string(session.title), "theme": .string(session.theme.rawValue),
            "description": .string(session.description), "duration": .number(session.durationSeconds),
            "onBox": .bool(session.audio.isBundled), "favorite": .bool(favorite),
            "license": .object(["name": .string(session.license.name), "attribution": .string(session.license.attribution)]),
        ]
        if case .remote(let remote) = session.audio { fields["bytes"] = .number(Double(remote.byteCount)) }
        return .object(fields)
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
