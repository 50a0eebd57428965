// Start-up: reconcile the records with the downloads folder, then verify copies in the background and
// resume interrupted downloads once a manifest names them again.

import CryptoHash
import EventLoop
import Glibc
import StillroomCore
import SystemCalls

extension DownloadManager {
    /// Reconciles the database with the folder (DownloadReconciler) and starts background checks. Call
    /// once, before `refreshManifests()`.
    public func start() {
        let loaded: [AudioDownloadRecord]
        do {
            loaded = try store.downloads()
        } catch {
            log(.error, "downloads: cannot read the download records: \(error)")
            loaded = []
        }
        records = Dictionary(loaded.map { ($0.sessionID, $0) }, uniquingKeysWith: { first, _ in first })
        let files: [DownloadFileEntry]
        do {
            files = try DownloadFiles.list(directory)
        } catch {
            log(.error, "downloads: cannot list \(directory): \(error)")
            files = []
        }
        let outcome = DownloadReconciler.reconcile(records: loaded, files: files, wall: moment().wall)
        apply(outcome)
        loadKeptEntries()
        loadKeptManifests()
    }

    func apply(_ outcome: ReconcileOutcome) {
        var folderChanged = false
        for action in outcome.actions {
            switch action {
            case .deleteFile(let name):
                do {
                    try DownloadFiles.remove(directory + "/" + name)
                    folderChanged = true
                } catch {
                    log(.warning, "downloads: \(error)")
                }
            case .saveRecord(let record):
                save(record)
            case .deleteRecord(let sessionID):
                do {
                    try deleteRecord(sessionID)
                } catch {
                    log(.error, "downloads: could not delete the record of \(sessionID): \(error)")
                }
            case .verifyInstalled(let id, let adopt):
                guard adopt || configuration.verifyCopiesAtStart else { continue }
                verifierForStart().enqueue(id, adopt: adopt)
            case .resume(let id, let partBytes):
                pendingResumes[id] = partBytes
            }
        }
        if folderChanged { syncFolder() }
        for note in outcome.notes { log(.notice, note) }
        resumePending()
    }

    private func verifierForStart() -> CopyVerifier {
        if let verifier { return verifier }
        let made = CopyVerifier(loop: loop, chunk: configuration.hashChunkBytes, path: { [unowned self] in path(.audio, $0) }) {
            [unowned self] id, result in verified(id, result)
        }
        verifier = made
        return made
    }

    private func verified(_ id: ContentID, _ result: Result<SHA256Digest, SystemError>) {
        guard let record = records[id.rawValue] else { return }
        switch result {
        case .success(let digest):
            apply(DownloadReconciler.afterVerification(record, actual: digest, wall: moment().wall))
        case .failure(let error):
            log(.warning, "downloads: could not check \(id): \(error)")
        }
        onChange?(id)
    }

    /// Turns interrupted downloads into jobs once a manifest names their session.
    func resumePending() {
        guard !pendingResumes.isEmpty, sources.contains(where: { if case .loaded = $0.state { true } else { false } }) else { return }
        let everySourceLoaded = sources.allSatisfy { if case .loaded = $0.state { true } else { false } }
        for (id, partBytes) in pendingResumes.sorted(by: { $0.key < $1.key }) {
            guard let session = remoteSession(id), let target = DownloadTarget(session: session) else {
                guard everySourceLoaded, var record = records[id.rawValue] else { continue }
                pendingResumes[id] = nil
                removeFile(.partial, id)
                let failure = DownloadFailure.recorded(reason: "No download source offers this session any more.",
                                                       advice: "Remove it, or refresh the list of sessions later.")
                record.state = .failed
                record.bytesDone = 0
                record.error = failure.recordText
                record.updatedAt = moment().wall
                save(record)
                log(.notice, "downloads: \(id) is no longer offered; its partial download was removed")
                onChange?(id)
                continue
            }
            pendingResumes[id] = nil
            let record = records[id.rawValue]
            let localPath = DownloadLayout.localPath(for: id)
            if record?.sha256 == target.sha256.hex, record?.bytesTotal == target.byteCount {
                register(DownloadJob.resume(target, localPath: localPath, partBytes: partBytes, policy: configuration.policy), session: session)
                log(.notice, "downloads: resuming \(id) from byte \(partBytes)")
            } else {
                // The manifest now describes another file: the partial bytes belong to the old one.
                removeFile(.partial, id)
                let (job, effects) = DownloadJob.queue(target, localPath: localPath, policy: configuration.policy, at: moment())
                register(job, session: session)
                if let running = downloads[id] { for effect in effects { perform(effect, for: running) } }
                log(.notice, "downloads: \(id) changed on the server; downloading it again from the start")
            }
            onChange?(id)
        }
        pump()
    }
}

/// Hashes downloaded copies one after another, a chunk per loop turn, so a start-up check of every
/// download never holds up the loop.
final class CopyVerifier {
    private let loop: EventLoop
    private let chunk: Int
    private let report: (ContentID, Result<SHA256Digest, SystemError>) -> Void
    private var queue: [(id: ContentID, adopt: Bool)] = []
    private var current: (id: ContentID, adopt: Bool, file: FileDescriptor, path: String, hasher: SHA256Hasher)?
    private var timer: LoopTimer?
    private let pathOf: (ContentID) -> String

    /// - Parameter path: where a session's recording is.
    init(loop: EventLoop, chunk: Int, path: @escaping (ContentID) -> String,
         report: @escaping (ContentID, Result<SHA256Digest, SystemError>) -> Void) {
        self.loop = loop
        self.chunk = chunk
        self.pathOf = path
        self.report = report
        timer = loop.makeTimer { [unowned self] in step() }
    }

    deinit { stop() }

    /// Whether `id` is waiting for (or in) a check that may adopt it.
    func isAdopting(_ id: ContentID) -> Bool {
        (current?.id == id && current?.adopt == true) || queue.contains { $0.id == id && $0.adopt }
    }

    /// Whether a check is running or waiting.
    var isBusy: Bool { current != nil || !queue.isEmpty }

    func enqueue(_ id: ContentID, adopt: Bool) {
        queue.append((id, adopt))
        if current == nil { timer?.schedule(at: loop.now) }
    }

    func stop() {
        timer?.cancel()
        current?.file.close()
        current = nil
        queue.removeAll()
    }

    private func step() {
        if current == nil {
            guard !queue.isEmpty else { return }
            let next = queue.removeFirst()
            let path = pathOf(next.id)
            // The copy is kept, unchecked, when SHA-256 cannot be computed: it is said, and nothing is lost.
            if let reason = SHA256Hasher.loadLibrary() {
                report(next.id, .failure(SystemError("SHA-256 (\(reason))", path: path, errno: ELIBACC)))
                timer?.schedule(at: loop.now)
                return
            }
            do {
                current = (next.id, next.adopt, try FileDescriptor.open(path, O_RDONLY), path, SHA256Hasher())
            } catch {
                report(next.id, .failure(error))
                timer?.schedule(at: loop.now)
                return
            }
        }
        guard let item = current else { return }
        do {
            let bytes = try item.file.read(upTo: chunk, path: item.path)
            if bytes.isEmpty {
                item.file.close()
                current = nil
                report(item.id, .success(item.hasher.finalize()))
            } else {
                item.hasher.update(bytes)
            }
        } catch {
            item.file.close()
            current = nil
            report(item.id, .failure(error))
        }
        if current != nil || !queue.isEmpty { timer?.schedule(at: loop.now) }
    }
}
