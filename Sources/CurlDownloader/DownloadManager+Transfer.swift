// Performing a job's transfer effects: side files first (small, into memory), then the recording into
// its `.part` file (after re-reading what a restart left there into the digest), then verify and install.

import CryptoHash
import EventLoop
import StillroomCore
import SystemCalls

/// A job and the machinery working for it.
final class RunningDownload {
    let id: ContentID
    var job: DownloadJob
    let session: Session
    var transfer: CurlTransfer?
    var writer: PartFileWriter?
    /// The transcript, breath cues and provenance, fetched and checked, waiting for the install.
    var sideFiles: [DownloadLayout.FileRole: [UInt8]]?
    var sideFetch: MemoryFetch?
    /// A transfer the job asked for that waits for the side files or the digest to catch up.
    var pendingStart: (url: RemoteURL, offset: Int64)?
    var hashTimer: LoopTimer?
    var retryTimer: LoopTimer?
    var bytesSinceSpaceCheck: Int64 = 0

    init(id: ContentID, job: DownloadJob, session: Session) {
        self.id = id
        self.job = job
        self.session = session
    }

    /// Lets go of everything once the job is over (the `.part` file was already closed or removed).
    func release() {
        hashTimer?.cancel()
        retryTimer?.cancel()
        sideFetch?.cancel()
        sideFetch = nil
        writer?.close()
        writer = nil
        sideFiles = nil
        pendingStart = nil
    }
}

extension DownloadManager {
    /// Adds a job (replacing a finished one of the same session) and queues it.
    func register(_ job: DownloadJob, session: Session) {
        if let old = downloads[session.id] {
            stopTransfer(old)
            old.release()
        }
        let running = RunningDownload(id: session.id, job: job, session: session)
        running.retryTimer = loop.makeTimer { [unowned self, unowned running] in
            feed(running.id, .retryDue(spaceReport(excluding: running.id)))
        }
        running.hashTimer = loop.makeTimer { [unowned self, unowned running] in
            hashStep(running)
        }
        downloads[session.id] = running
        queueOrder.removeAll { $0 == session.id }
        queueOrder.append(session.id)
    }

    func startTransfer(_ running: RunningDownload, url: RemoteURL, offset: Int64) {
        stopTransfer(running)
        running.pendingStart = (url, offset)
        advance(running)
    }

    func stopTransfer(_ running: RunningDownload) {
        if let transfer = running.transfer { multi.remove(transfer) }
        running.transfer = nil
        running.sideFetch?.cancel()
        running.sideFetch = nil
        running.hashTimer?.cancel()
        running.pendingStart = nil
    }

    /// Takes the next step towards the pending transfer: side files, the `.part` file and its digest,
    /// then the request itself.
    func advance(_ running: RunningDownload) {
        guard let start = running.pendingStart, running.job.phase == .downloading else { return }
        if running.sideFiles == nil {
            if running.sideFetch == nil { fetchSideFiles(running, remaining: sideFileLocations(running.session), collected: [:]) }
            return
        }
        if running.writer == nil {
            // libcurl and libcrypto are loaded before the first byte is hashed, and a box without them says so.
            do {
                try CurlGlobal.ensureInitializedForTransfer()
            } catch {
                feed(running.id, .transferFailed(error))
                return
            }
            do {
                running.writer = try PartFileWriter(path: path(.partial, running.id), capacityLimit: configuration.writeCapacityLimit)
            } catch {
                feed(running.id, .transferFailed(writeFailure(error, running)))
                return
            }
        }
        guard let writer = running.writer else { return }
        if writer.size != start.offset {
            guard writer.size > start.offset else {
                feed(running.id, .transferFailed(.cannotWrite("the partial file is shorter (\(writer.size) bytes) than recorded (\(start.offset))")))
                return
            }
            do {
                try writer.truncate(to: start.offset)
            } catch {
                feed(running.id, .transferFailed(writeFailure(error, running)))
                return
            }
        }
        if !writer.isDigestCurrent {
            // Re-read what a restart left in the .part file, a chunk per loop turn.
            running.hashTimer?.schedule(at: loop.now)
            return
        }
        running.pendingStart = nil
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(url: start.url, offset: start.offset, maximumBytes: running.job.target.byteCount,
                                        limits: configuration.limits)
        } catch {
            feed(running.id, .transferFailed(error))
            return
        }
        hook(transfer, to: running)
        running.transfer = transfer
        running.bytesSinceSpaceCheck = 0
        multi.add(transfer)
    }

    private func hashStep(_ running: RunningDownload) {
        guard let writer = running.writer, running.pendingStart != nil else { return }
        do {
            if try writer.hashExistingBytes(chunk: configuration.hashChunkBytes) {
                advance(running)
            } else {
                running.hashTimer?.schedule(at: loop.now)
            }
        } catch {
            running.pendingStart = nil
            feed(running.id, .transferFailed(.cannotWrite(error.description)))
        }
    }

    // Each hook holds `running` strongly while it runs: what it feeds may end the download (an onChange
    // handler may even remove it), and the hook still reads it afterwards.
    private func hook(_ transfer: CurlTransfer, to download: RunningDownload) {
        transfer.onHead = { [unowned self, unowned download, unowned transfer] head in
            let running: RunningDownload = download
            guard running.transfer === transfer else { return false }
            feed(running.id, .response(head))
            return running.transfer === transfer && running.job.phase == .downloading && running.job.isReceivingBody
        }
        transfer.onBody = { [unowned self, unowned download, unowned transfer] bytes in
            let running: RunningDownload = download
            guard running.transfer === transfer, let writer = running.writer else { return false }
            let limit = running.job.target.byteCount
            if writer.size + Int64(bytes.count) > limit {
                // Never write past the manifest's size (a server that announced no length, or lied low).
                feed(running.id, .transferFailed(.oversize(bytes: writer.size + Int64(bytes.count), limit: limit)))
                return false
            }
            do throws(SystemError) {
                try writer.append(bytes)
            } catch {
                feed(running.id, .transferFailed(writeFailure(error, running)))
                return false
            }
            running.bytesSinceSpaceCheck += Int64(bytes.count)
            if running.bytesSinceSpaceCheck >= configuration.spaceCheckInterval {
                running.bytesSinceSpaceCheck = 0
                if let shortage = shortage(for: running, written: writer.size) {
                    feed(running.id, .transferFailed(.diskFull(shortage)))
                    return false
                }
            }
            feed(running.id, .progress(bytesDone: writer.size))
            return running.transfer === transfer && running.job.phase == .downloading
        }
        transfer.onFinish = { [unowned self, unowned download, unowned transfer] outcome in
            let running: RunningDownload = download
            guard running.transfer === transfer else { return }
            running.transfer = nil
            switch outcome {
            case .completed: feed(running.id, .transferEnded(bytesDone: running.writer?.size ?? 0))
            case .failed(let failure): feed(running.id, .transferFailed(failure))
            }
        }
    }

    /// statvfs while writing: the rest of the file plus the reserve must still fit.
    private func shortage(for running: RunningDownload, written: Int64) -> SpaceShortage? {
        guard let available = freeSpace(directory) else { return nil }
        let needed = max(0, running.job.target.byteCount - written) + configuration.policy.reserveBytes
        guard available < needed else { return nil }
        return SpaceShortage(neededBytes: needed, availableBytes: available, reserveBytes: configuration.policy.reserveBytes,
                             removable: spaceReport(excluding: running.id).removable)
    }

    // MARK: Side files

    private func sideFileLocations(_ session: Session) -> [(DownloadLayout.FileRole, AssetLocation)] {
        var wanted: [(DownloadLayout.FileRole, AssetLocation)] = [(.transcript, session.transcript), (.provenance, session.provenance)]
        if let cues = session.breathCues { wanted.append((.breathCues, cues)) }
        return wanted
    }

    private func fetchSideFiles(_ running: RunningDownload, remaining: [(DownloadLayout.FileRole, AssetLocation)],
                                collected: [DownloadLayout.FileRole: [UInt8]]) {
        guard let (role, location) = remaining.first else {
            running.sideFiles = collected
            advance(running)
            return
        }
        guard case .remote(let url) = location else {
            feed(running.id, .transferFailed(.invalidSideFile("the \(role.rawValue) file is not a download address")))
            return
        }
        let fetch = MemoryFetch(multi: multi, hosts: configuration.policy.hosts, limit: configuration.limits.sideFileByteLimit,
                                maximumRedirects: configuration.policy.maximumRedirects, limits: configuration.limits)
        running.sideFetch = fetch
        fetch.start(url) { [unowned self, unowned download = running] result in
            let running: RunningDownload = download
            guard running.sideFetch === fetch else { return }
            running.sideFetch = nil
            switch result {
            case .failure(let failure):
                feed(running.id, .transferFailed(failure))
            case .success(let bytes):
                if let problem = Self.digestProblem(with: bytes, role: role, session: running.session)
                    ?? Self.problem(with: bytes, role: role, session: running.session) {
                    feed(running.id, .transferFailed(.invalidSideFile(problem)))
                    return
                }
                var next = collected
                next[role] = bytes
                fetchSideFiles(running, remaining: Array(remaining.dropFirst()), collected: next)
            }
        }
    }

    /// A side file is taken only as its signed list describes it (SignedList): the list must give its
    /// SHA-256 (`sideFileSha256`), and the bytes must match, before any parser sees them.
    static func digestProblem(with bytes: [UInt8], role: DownloadLayout.FileRole, session: Session) -> String? {
        guard let expected = session.sideFileDigests[role.rawValue] else {
            return "the list of sessions gives no SHA-256 for the \(role.rawValue) file (sideFileSha256.\(role.rawValue))"
        }
        let actual = SHA256Hasher.digest(bytes)
        guard actual == expected else {
            return "the \(role.rawValue) file does not match its SHA-256 in the list (expected \(expected.hex.prefix(12))…, got \(actual.hex.prefix(12))…)"
        }
        return nil
    }

    /// Side files are checked like bundled ones before they may replace anything.
    static func problem(with bytes: [UInt8], role: DownloadLayout.FileRole, session: Session) -> String? {
        let name = DownloadLayout.fileName(role, for: session.id)
        switch role {
        case .transcript:
            do {
                _ = try WebVTTParser.parse(bytes, fileName: name)
            } catch {
                return "the transcript is not valid WebVTT: \(error)"
            }
        case .breathCues:
            do {
                _ = try BreathCueParser.parse(bytes, fileName: name, recordingSeconds: session.durationSeconds)
            } catch {
                return "the breath cues are invalid: \(error.problems.first?.description ?? "\(error)")"
            }
        case .provenance:
            guard (try? JSONValue.parse(bytes))?.objectValue != nil else { return "the provenance record is not a JSON object" }
        default:
            break
        }
        return nil
    }

    // MARK: Verify and install

    func verify(_ running: RunningDownload) {
        guard let writer = running.writer else {
            feed(running.id, .transferFailed(.cannotWrite("the partial file is gone")))
            return
        }
        do {
            feed(running.id, .verified(try writer.finish()))
        } catch {
            feed(running.id, .transferFailed(writeFailure(error, running)))
        }
    }

    /// Side files by write-fsync-rename, then the recording's `.part` renamed over the final name, then
    /// the folder fsync'd. The earlier copy (if any) is replaced only by that one atomic rename.
    func install(_ running: RunningDownload) {
        let id = running.id
        do {
            for (role, bytes) in (running.sideFiles ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                try DownloadFiles.writeAtomically(bytes, to: path(role, id))
            }
            if running.sideFiles?[.breathCues] == nil { try DownloadFiles.remove(path(.breathCues, id)) }
            // The entry that lets the session play and show with no network (KeptSessionEntry).
            if let entry = entryBytes(for: id) { try DownloadFiles.writeAtomically(entry, to: path(.entry, id)) }
            running.writer?.close()
            running.writer = nil
            try DownloadFiles.rename(path(.partial, id), to: path(.audio, id))
        } catch {
            feed(id, .installFailed(writeFailure(error, running)))
            return
        }
        keptEntries[id] = running.session
        do {
            try DownloadFiles.syncDirectory(directory)
        } catch {
            // The file is in place and its data synced; only the rename's durability is in doubt, and
            // start-up verifies and adopts a finished file either way.
            log(.warning, "downloads: \(error)")
        }
        feed(id, .installed)
    }
}
