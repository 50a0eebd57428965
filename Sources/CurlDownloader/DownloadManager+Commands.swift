// What the owner can ask for (from the screens or `stillroomctl`): download, cancel, remove.

import StillroomCore

extension DownloadManager {
    /// Queues a download of a remote session (or an update, when the copy on the box is older than the
    /// manifest's). Asking again while it runs does nothing; after a failure or a cancel it starts anew.
    public func download(_ id: ContentID) throws(DownloadCommandError) {
        guard !bundledSessionIDs.contains(id) else { throw .bundled(id.rawValue) }
        if let running = downloads[id], running.job.phase.isActive { return }
        guard let session = remoteSession(id), let target = DownloadTarget(session: session) else {
            throw .unknownSession(id.rawValue)
        }
        let record = records[id.rawValue]
        let hasCopy = record?.state == .complete
        if hasCopy, record?.sha256 == target.sha256.hex, record?.bytesTotal == target.byteCount {
            throw .alreadyOnThisBox(id.rawValue)
        }
        if pendingResumes.removeValue(forKey: id) != nil { removeFile(.partial, id) }
        let (job, effects) = DownloadJob.queue(target, localPath: DownloadLayout.localPath(for: id), keepsPreviousCopy: hasCopy,
                                               policy: configuration.policy, at: moment())
        register(job, session: session)
        if let running = downloads[id] { for effect in effects { perform(effect, for: running) } }
        log(.notice, "downloads: \(id) queued\(hasCopy ? " (an update; the copy on this box stays until it is replaced)" : "")")
        onChange?(id)
        pump()
    }

    /// Stops a queued or running download and deletes its partial file. An earlier copy stays.
    public func cancel(_ id: ContentID) throws(DownloadCommandError) {
        guard !bundledSessionIDs.contains(id) else { throw .bundled(id.rawValue) }
        if let running = downloads[id], running.job.phase.isActive {
            feed(id, .cancel)
            return
        }
        if pendingResumes.removeValue(forKey: id) != nil, var record = records[id.rawValue] {
            removeFile(.partial, id)
            record.state = .cancelled
            record.bytesDone = 0
            record.updatedAt = moment().wall
            save(record)
            onChange?(id)
            return
        }
        throw .notDownloaded(id.rawValue)
    }

    /// What to ask before `remove`: "Remove “Steady rain” from this box? It frees 4.2 MB. You can
    /// download it again later." nil when there is nothing to remove (or the session is bundled).
    public func removalPrompt(for id: ContentID) -> String? {
        guard !bundledSessionIDs.contains(id), let status = status(of: id), status.canRemove else { return nil }
        let bytes = DownloadFiles.size(path(.audio, id)) ?? 0
        var text = "Remove \u{201C}\(title(of: id))\u{201D} from this box?"
        if bytes > 0 { text += " It frees \(ByteCountText.text(bytes))." }
        text += " You can download it again later."
        return text
    }

    /// Removes a downloaded session (after the owner confirmed `removalPrompt`): cancels a running
    /// download, forgets the record, deletes the files. Returns the bytes freed.
    ///
    /// The record goes first, so a power cut in between leaves stray files (deleted at the next start),
    /// never a record that points at nothing.
    @discardableResult
    public func remove(_ id: ContentID) throws(DownloadCommandError) -> Int64 {
        guard !bundledSessionIDs.contains(id) else { throw .bundled(id.rawValue) }
        guard records[id.rawValue] != nil || downloads[id] != nil || pendingResumes[id] != nil else {
            throw .notDownloaded(id.rawValue)
        }
        if let running = downloads[id], running.job.phase.isActive { feed(id, .cancel) }
        do {
            try deleteRecord(id.rawValue)
        } catch {
            throw .cannotRemove("\(error)")
        }
        var freed: Int64 = 0
        for role in DownloadLayout.sessionFileRoles {
            freed += DownloadFiles.size(path(role, id)) ?? 0
            removeFile(role, id)
        }
        syncFolder()
        if let running = downloads.removeValue(forKey: id) {
            stopTransfer(running)
            running.release()
        }
        pendingResumes[id] = nil
        keptEntries[id] = nil
        queueOrder.removeAll { $0 == id }
        log(.notice, "downloads: removed \(id) (\(ByteCountText.text(freed)) freed)")
        onChange?(id)
        return freed
    }

    func removeFile(_ role: DownloadLayout.FileRole, _ id: ContentID) {
        do {
            try DownloadFiles.remove(path(role, id))
        } catch {
            log(.warning, "downloads: \(error)") // start-up removes files no record refers to
        }
    }

    func syncFolder() {
        do {
            try DownloadFiles.syncDirectory(directory)
        } catch {
            log(.warning, "downloads: \(error)")
        }
    }

    /// Stops transfers for a clean exit. Running downloads keep their `.part` files and are saved as
    /// `downloading`, so the next start resumes them with a Range request.
    public func shutDown() {
        for running in downloads.values where running.job.phase.isActive {
            stopTransfer(running)
            running.retryTimer?.cancel()
            if let writer = running.writer, !running.job.keepsPreviousCopy {
                var record = running.job.record(.downloading, wall: moment().wall)
                record.bytesDone = writer.size
                save(record)
            }
            running.release()
        }
        for fetch in manifestFetches.values { fetch.cancel() }
        manifestFetches.removeAll()
        verifier?.stop()
    }
}
