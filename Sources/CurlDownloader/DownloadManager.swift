// Ties the pure download core to libcurl, the files and the store: it feeds each `DownloadJob` the
// events the world produces and performs the effects the job returns. One download transfers at a time
// (the others wait queued); manifests and the small side files are fetched alongside.
//
// Files live in `<data>/downloads/` (DownloadLayout). The store is reached through `DownloadRecordStore`,
// which the daemon's SQLiteStore satisfies as it is. Everything runs on the loop's thread.

import EventLoop
import FoundationEssentials
import CryptoHash
import StillroomCore
import SystemCalls

/// What the manager needs from the database: the `audio_download` table. `SQLiteStore` has exactly
/// these methods, so the daemon only declares `extension SQLiteStore: DownloadRecordStore {}`.
public protocol DownloadRecordStore: AnyObject {
    func downloads() throws -> [AudioDownloadRecord]
    func upsertDownload(_ record: AudioDownloadRecord) throws
    @discardableResult
    func deleteDownload(sessionID: String) throws -> Bool
}

/// How important a log line is; the daemon maps it to its syslog priority.
public enum DownloadLogLevel: Sendable {
    case error, warning, notice, info
}

/// The files of a session that is on this box, as absolute paths.
public struct DownloadedFiles: Sendable, Hashable {
    public var audio: String
    public var transcript: String
    public var breathCues: String?
    public var provenance: String
}

/// A download command that cannot be carried out, with a message fit for the screen and the CLI.
public enum DownloadCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No manifest lists this session (yet).
    case unknownSession(String)
    /// Bundled sessions always play and cannot be downloaded or removed.
    case bundled(String)
    case alreadyOnThisBox(String)
    /// Nothing to cancel or remove.
    case notDownloaded(String)
    /// The database refused the change (a full card); nothing was removed.
    case cannotRemove(String)

    public var description: String {
        switch self {
        case .unknownSession(let id): "no download source lists the session \"\(id)\"; refresh the list of sessions"
        case .bundled(let id): "\"\(id)\" is bundled with the box; it always plays and cannot be downloaded or removed"
        case .alreadyOnThisBox(let id): "\"\(id)\" is already on this box"
        case .notDownloaded(let id): "\"\(id)\" is not downloaded or being downloaded"
        case .cannotRemove(let reason): "the download could not be removed: \(reason)"
        }
    }
}

/// The state of one configured manifest.
public struct ManifestSourceStatus: Sendable, Hashable {
    public enum State: Sendable, Hashable {
        case notLoaded
        case loading
        case loaded(sessionCount: Int)
        case failed(DownloadFailure)
    }

    public var url: RemoteURL
    public var state: State
    /// Entries of the manifest that were skipped, and why.
    public var problems: [ContentProblem]
    /// The sessions it lists come from the copy of its manifest kept on the box: the source has not been
    /// reached since the box started.
    public var remembered = false

    /// One line for people: "3 sessions listed", "could not be read: … Using the list kept on this box.".
    public var summary: String {
        let kept = remembered ? " Meanwhile the list kept on this box is shown." : ""
        switch state {
        case .notLoaded: return "not read yet." + kept
        case .loading: return "being read." + kept
        case .loaded(let count): return count == 1 ? "1 session listed" : "\(count) sessions listed"
        case .failed(let failure): return "could not be read: \(failure.reason) \(failure.advice)" + kept
        }
    }
}

/// Downloads of remote sessions: manifests, transfers, verification, install, removal, start-up repair.
/// Not thread-safe: create and use it on the loop's thread.
public final class DownloadManager {
    public struct Configuration: Sendable {
        /// The data directory; downloads go to its `downloads/` folder.
        public var dataDirectory: String
        /// The manifests to read (for a base URL, `DownloadManager.manifestURL(base:)`).
        public var manifestURLs: [RemoteURL]
        /// The maker's keys: a list is used only when one of them signed it.
        public var contentKeys: ContentKeySet
        public var policy: DownloadPolicy
        public var limits: TransferLimits
        /// Re-hash every downloaded copy at start-up (in the background, a chunk per loop turn).
        public var verifyCopiesAtStart: Bool
        /// How often free space is measured while a file is written.
        public var spaceCheckInterval: Int64
        /// Tests: the `.part` writer fails with ENOSPC beyond this size, like a full card.
        public var writeCapacityLimit: Int64?
        /// How much of a file is hashed per loop turn when reading one back.
        public var hashChunkBytes: Int

        public init(dataDirectory: String, manifestURLs: [RemoteURL], contentKeys: ContentKeySet, policy: DownloadPolicy,
                    limits: TransferLimits = TransferLimits(),
                    verifyCopiesAtStart: Bool = true, spaceCheckInterval: Int64 = 1_000_000, writeCapacityLimit: Int64? = nil,
                    hashChunkBytes: Int = 1 << 20) {
            self.dataDirectory = dataDirectory
            self.manifestURLs = manifestURLs
            self.contentKeys = contentKeys
            self.policy = policy
            self.limits = limits
            self.verifyCopiesAtStart = verifyCopiesAtStart
            self.spaceCheckInterval = max(0, spaceCheckInterval)
            self.writeCapacityLimit = writeCapacityLimit
            self.hashChunkBytes = max(4096, hashChunkBytes)
        }
    }

    /// `manifest.json` next to `base` (`https://host/stillroom/` → `https://host/stillroom/manifest.json`).
    public static func manifestURL(base: RemoteURL) -> RemoteURL {
        (try? base.resolving("manifest.json")) ?? base
    }

    public let configuration: Configuration
    /// `<data>/downloads`.
    public let directory: String
    let loop: EventLoop
    let store: DownloadRecordStore
    let log: (DownloadLogLevel, String) -> Void
    let freeSpace: (String) -> Int64?
    let random: () -> Double
    let multi: CurlMulti

    /// Sessions that ship with the box (the daemon sets this from the catalog): never downloaded or removed.
    public var bundledSessionIDs: Set<ContentID> = []
    /// Called after a session's download status changed (phase, or a whole percent of progress).
    public var onChange: ((ContentID) -> Void)?
    /// Called after the list of remote sessions changed.
    public var onManifestsChanged: (() -> Void)?

    /// The database's rows, kept in step with every write.
    var records: [String: AudioDownloadRecord] = [:]
    var downloads: [ContentID: RunningDownload] = [:]
    /// The order downloads were asked for; the first queued one gets the slot.
    var queueOrder: [ContentID] = []
    /// The download holding the transfer slot.
    var activeID: ContentID?
    /// Interrupted downloads waiting for a manifest to name their URL again (id → bytes in the .part).
    var pendingResumes: [ContentID: Int64] = [:]
    var sources: [ManifestSourceStatus]
    var manifestFetches: [Int: MemoryFetch] = [:]
    /// What each source listed the last time it loaded, and the problems its parse found.
    var sourceSessions: [Int: [Session]] = [:]
    var sourceParseProblems: [Int: [ContentProblem]] = [:]
    public internal(set) var remoteSessions: [Session] = []
    /// Each source's raw session entries, from its latest list, to keep beside a download.
    var sourceEntries: [Int: [ContentID: JSONValue]] = [:]
    /// The version and bytes of the signed list each source last gave (or its kept copy): a list may not
    /// go back from it (SignedList.replayRefusal).
    var keptLists: [Int: (version: Int, bytes: [UInt8])] = [:]
    /// The maker's keys in libcrypto, made when the first list is checked (libcrypto loads lazily).
    lazy var signatureChecker: Result<ContentSignatureChecker, InvalidValue> = {
        let keys = configuration.contentKeys
        guard !keys.keys.isEmpty else {
            return .failure(InvalidValue("the box has no key to check lists of sessions with (none in \(keys.source))"))
        }
        do {
            return .success(try ContentSignatureChecker(keys: keys.keys))
        } catch {
            return .failure(InvalidValue("its signature cannot be checked: \(error)"))
        }
    }()
    /// Downloaded sessions as their kept entries describe them (see DownloadManager+KeptLists.swift).
    var keptEntries: [ContentID: Session] = [:]
    var verifier: CopyVerifier?
    private var eventQueue: [(ContentID, DownloadEvent)] = []
    private var draining = false

    /// - Parameters:
    ///   - freeSpace: bytes available at a path (statvfs by default); tests inject smaller numbers.
    ///   - random: values in 0 ..< 1 for retry jitter.
    public init(configuration: Configuration, loop: EventLoop, store: DownloadRecordStore,
                log: @escaping (DownloadLogLevel, String) -> Void,
                freeSpace: @escaping (String) -> Int64? = DownloadManager.availableBytes(at:),
                random: @escaping () -> Double = { Double.random(in: 0..<1) }) throws(DownloadSetupError) {
        self.configuration = configuration
        self.directory = configuration.dataDirectory + "/" + DownloadLayout.directoryName
        self.loop = loop
        self.store = store
        self.log = log
        self.freeSpace = freeSpace
        self.random = random
        self.sources = configuration.manifestURLs.map { ManifestSourceStatus(url: $0, state: .notLoaded, problems: []) }
        self.multi = CurlMulti(loop: loop, log: { message in log(.warning, "downloads: \(message)") })
        do {
            try DownloadFiles.makeDirectories(directory + "/" + DownloadLayout.manifestCacheDirectoryName)
        } catch {
            throw DownloadSetupError("downloads folder: \(error)")
        }
    }

    /// Bytes an unprivileged writer may still use where `path` lives (statvfs: f_bavail × f_frsize).
    public static func availableBytes(at path: String) -> Int64? { DownloadFiles.availableBytes(path) }

    deinit {
        // Timers and watches live in the loop, which outlives this manager; none may fire into it.
        for running in downloads.values {
            if let transfer = running.transfer { multi.remove(transfer) }
            running.release()
        }
        for fetch in manifestFetches.values { fetch.cancel() }
        verifier?.stop()
    }

    // MARK: Reading state

    /// The manifests and what became of each.
    public var manifestSources: [ManifestSourceStatus] { sources }

    /// The download status of a session; nil for bundled sessions and sessions no manifest or record knows.
    public func status(of id: ContentID) -> DownloadStatus? {
        guard var status = statusIgnoringOffer(of: id) else { return nil }
        status.offer = offer(of: id)
        return status
    }

    private func statusIgnoringOffer(of id: ContentID) -> DownloadStatus? {
        guard !bundledSessionIDs.contains(id) else { return nil }
        if let running = downloads[id] { return DownloadStatus(job: running.job) }
        if verifier?.isAdopting(id) == true {
            return DownloadStatus(sessionID: id.rawValue, state: .verifying, bytesDone: records[id.rawValue]?.bytesTotal ?? 0,
                                  bytesTotal: records[id.rawValue]?.bytesTotal)
        }
        if let partBytes = pendingResumes[id] {
            return DownloadStatus(sessionID: id.rawValue, state: .queued, bytesDone: partBytes, bytesTotal: records[id.rawValue]?.bytesTotal)
        }
        if let record = records[id.rawValue] { return DownloadStatus(record: record) }
        if let target = remoteSession(id).flatMap(DownloadTarget.init(session:)) {
            return DownloadStatus(sessionID: id.rawValue, state: .available, bytesTotal: target.byteCount)
        }
        return nil
    }

    /// Every remote session (manifest order), then downloads no manifest lists any more.
    public var statuses: [DownloadStatus] {
        var seen: Set<String> = []
        var result: [DownloadStatus] = []
        for session in remoteSessions {
            if let status = status(of: session.id) {
                result.append(status)
                seen.insert(session.id.rawValue)
            }
        }
        for id in records.keys.sorted() where !seen.contains(id) {
            if let contentID = try? ContentID(validating: id), let status = status(of: contentID) { result.append(status) }
        }
        return result
    }

    /// The files of a session that can play offline now (a verified copy), or nil.
    public func localFiles(for id: ContentID) -> DownloadedFiles? {
        guard let record = records[id.rawValue], record.state == .complete else { return nil }
        let hasBreathCues = DownloadFiles.size(path(.breathCues, id)) != nil
        return DownloadedFiles(audio: path(.audio, id), transcript: path(.transcript, id),
                               breathCues: hasBreathCues ? path(.breathCues, id) : nil, provenance: path(.provenance, id))
    }

    /// The remote session with this id: from the manifests, else from the entry kept with its copy.
    public func remoteSession(_ id: ContentID) -> Session? { remoteSessions.first { $0.id == id } ?? keptSession(id) }

    /// Every session this manager knows: the manifests' (in their order), then the downloaded copies no
    /// list offers any more (by title), which still play from their kept entries.
    public var sessions: [Session] {
        let listed = Set(remoteSessions.map(\.id))
        let keptOnly = keptEntries.values.filter { !listed.contains($0.id) && keptSession($0.id) != nil }
        return remoteSessions + keptOnly.sorted { ($0.title, $0.id) < ($1.title, $1.id) }
    }

    func path(_ role: DownloadLayout.FileRole, _ id: ContentID) -> String {
        directory + "/" + DownloadLayout.fileName(role, for: id)
    }

    func title(of id: ContentID) -> String { remoteSession(id)?.title ?? id.rawValue }

    // MARK: Events and effects

    func moment() -> DownloadMoment {
        let wall = Int64((loop.wallNow.timeIntervalSince1970 * 1000).rounded())
        return DownloadMoment(now: loop.now, wall: wall, randomUnit: random())
    }

    /// Feeds `event` to the job of `id` and performs its effects. Events raised while effects run are
    /// queued and handled in order after them.
    func feed(_ id: ContentID, _ event: DownloadEvent) {
        eventQueue.append((id, event))
        guard !draining else { return }
        draining = true
        while !eventQueue.isEmpty {
            let (id, event) = eventQueue.removeFirst()
            guard let running = downloads[id] else { continue }
            let before = DownloadStatus(job: running.job)
            let effects = running.job.handle(event, at: moment())
            for effect in effects { perform(effect, for: running) }
            settle(running, before: before)
        }
        draining = false
    }

    func perform(_ effect: DownloadEffect, for running: RunningDownload) {
        switch effect {
        case .startTransfer(let url, let offset):
            startTransfer(running, url: url, offset: offset)
        case .stopTransfer:
            stopTransfer(running)
        case .discardPartialBytes:
            do {
                try running.writer?.truncate(to: 0)
            } catch {
                feed(running.id, .transferFailed(writeFailure(error, running)))
            }
        case .scheduleRetry(let due):
            running.retryTimer?.schedule(at: due)
        case .cancelRetry:
            running.retryTimer?.cancel()
        case .verify:
            verify(running)
        case .install:
            install(running)
        case .removePartial:
            running.writer?.close()
            running.writer = nil
            do {
                try DownloadFiles.remove(path(.partial, running.id))
            } catch {
                log(.warning, "downloads: \(error)") // start-up removes a leftover .part
            }
        case .saveRecord(let record):
            save(record)
        }
    }

    /// After an event: tell the screens, free the slot, let the next download start.
    private func settle(_ running: RunningDownload, before: DownloadStatus) {
        let after = DownloadStatus(job: running.job)
        if after.state != before.state || after.percent != before.percent || after.failure != before.failure {
            if after.state != before.state || after.failure != before.failure { logTransition(running, after) }
            onChange?(running.id)
        }
        guard !running.job.phase.isActive else { return }
        running.release()
        if activeID == running.id { activeID = nil }
        queueOrder.removeAll { $0 == running.id }
        if case .installed = running.job.phase { downloads[running.id] = nil }
        pump()
    }

    private func logTransition(_ running: RunningDownload, _ status: DownloadStatus) {
        switch running.job.phase {
        case .failed(let failure):
            log(.warning, "downloads: \(running.id) failed: \(failure.reason)")
        case .waitingToRetry(_, let failure):
            log(.info, "downloads: \(running.id) will retry: \(failure.reason)")
        default:
            log(.info, "downloads: \(running.id) \(status.state.rawValue)")
        }
    }

    /// Gives the transfer slot to the first queued download.
    /// Bytes may be on their way: a list being fetched, or a download between its start and its install (not
    /// one waiting for its retry's timer). What a caller on virtual time waits for on the real clock.
    public var isTransferring: Bool {
        sources.contains { if case .loading = $0.state { true } else { false } }
            || downloads.values.contains {
                switch $0.job.phase {
                case .queued, .downloading, .verifying, .installing: true
                default: false
                }
            }
    }

    func pump() {
        guard activeID == nil else { return }
        guard let next = queueOrder.first(where: { downloads[$0]?.job.phase == .queued }) else { return }
        activeID = next
        feed(next, .start(spaceReport(excluding: next)))
    }

    func spaceReport(excluding id: ContentID) -> SpaceReport {
        let removable = records.values
            .filter { $0.state == .complete && $0.sessionID != id.rawValue }
            .compactMap { record -> RemovableDownload? in
                guard let other = try? ContentID(validating: record.sessionID) else { return nil }
                return RemovableDownload(sessionID: other, title: title(of: other), bytes: record.bytesTotal ?? record.bytesDone)
            }
            .sorted { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.sessionID < $1.sessionID }
        return SpaceReport(availableBytes: freeSpace(directory), removable: removable)
    }

    func save(_ record: AudioDownloadRecord) {
        records[record.sessionID] = record
        do {
            try store.upsertDownload(record)
        } catch {
            // The in-memory state stays right; the next save tries again, and start-up reconciles.
            log(.error, "downloads: could not save the record of \(record.sessionID): \(error)")
        }
    }

    func deleteRecord(_ sessionID: String) throws {
        try store.deleteDownload(sessionID: sessionID)
        records[sessionID] = nil
    }

    func writeFailure(_ error: SystemError, _ running: RunningDownload) -> DownloadFailure {
        guard error.isNoSpace else { return .cannotWrite(error.description) }
        let written = running.writer?.size ?? 0
        let report = spaceReport(excluding: running.id)
        let remaining = max(0, running.job.target.byteCount - written)
        let needed = remaining + configuration.policy.reserveBytes
        var available = report.availableBytes ?? 0
        if let limit = configuration.writeCapacityLimit { available = min(available, max(0, limit - written)) }
        // The file system said ENOSPC: whatever statvfs reports, there was not room enough.
        if available >= needed { available = 0 }
        return .diskFull(SpaceShortage(neededBytes: needed, availableBytes: available,
                                       reserveBytes: configuration.policy.reserveBytes, removable: report.removable))
    }
}
