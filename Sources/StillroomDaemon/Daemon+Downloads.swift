import ControlProtocol
import CurlDownloader
import SQLiteStore
import StillroomCore

extension SQLiteStore: DownloadRecordStore {}

/// Downloads: the manager on the loop, its sessions beside the bundled ones, commands over the socket.
extension Daemon {
    /// The manager runs whenever downloads may be on the box, sources configured or not: a copy made while
    /// a source was configured still plays, from its kept entry, after the source is gone.
    func startDownloads() {
        let urls = options.manifestURLs.compactMap { try? RemoteURL(parsing: $0) }
        let configuration = DownloadManager.Configuration(
            dataDirectory: options.dataDirectory, manifestURLs: urls, contentKeys: ContentKeyFolder.read(options.contentKeyDirectory, log: logger),
            policy: DownloadPolicy(hosts: DownloadHostAllowList(options.downloadHosts)))
        do {
            let manager = try DownloadManager(configuration: configuration, loop: loop, store: store, log: { [logger] level, message in
                switch level {
                case .error: logger.error(message)
                case .warning: logger.warning(message)
                default: logger.info(message)
                }
            }, random: random)
            manager.bundledSessionIDs = Set(content.catalog.sessions.map(\.id))
            // Reconciled and the kept lists read before anything else starts: a resume offer after a power
            // cut may name a downloaded session, and must find it with no network.
            manager.start()
            manager.onChange = { [unowned self] id in downloadChanged(id) }
            manager.onManifestsChanged = { [unowned self] in refreshModel() }
            downloads = manager
            // The lists are fetched from the loop's first turn, after READY: the first fetch loads
            // libcurl, which serves neither PLAY nor the first frame (CLazyLibrary). The loop keeps a
            // scheduled timer alive until it fires.
            loop.makeTimer { [weak manager] in manager?.refreshManifests() }.schedule(at: loop.now)
        } catch {
            // Bundled sessions play without downloads; a downloads folder that cannot be made (a read-only
            // card at first boot) must not stop the box.
            logger.error("downloads: \(error); downloaded sessions are not available")
        }
    }

    /// A list or a download is being fetched (lifesim waits for the bytes on the real clock then).
    public var downloadsAreTransferring: Bool { downloads?.isTransferring ?? false }

    private func downloadChanged(_ id: ContentID) {
        guard let status = downloads?.status(of: id) else { return }
        logger.debug("download \(id): \(status.summary())")
        if status.state == .failed, let failure = status.failure {
            _ = try? store.addNotice(kind: .downloadFailed, message: "\(id): \(failure.reason) \(failure.advice)", now: wallMilliseconds)
            modelSources.storeChanged = true
        }
        refreshModel()
    }

    /// A session from the catalog, or from a manifest.
    func anySession(_ id: ContentID) -> Session? {
        content.catalog.session(withID: id) ?? downloads?.remoteSession(id)
    }

    /// The audio file to play, bundled or downloaded.
    func audioPath(of session: Session) -> String? {
        if let path = content.audioPath(of: session) { return path }
        return downloads?.localFiles(for: session.id)?.audio
    }

    func downloadsCommand(_ request: ControlCommand.DownloadRequest) -> Result<ControlReply, ControlError> {
        guard let downloads else {
            return .failure(ControlError(.failed, "downloads are not available on this box (see the log)"))
        }
        let id: ContentID
        do {
            switch request {
            case .list:
                return .success(.downloads(DownloadsReport(downloads: downloads.statuses.map(DownloadReport.init),
                                                           sources: downloads.manifestSources.map(\.report))))
            case .start(let session):
                guard !downloads.manifestSources.isEmpty else {
                    return .failure(ControlError(.failed, "no download sources are configured (stillroomd --manifest URL)"))
                }
                id = session
                try downloads.download(id)
            case .cancel(let session):
                id = session
                try downloads.cancel(id)
            case .remove(let session, let confirmed):
                id = session
                guard confirmed else {
                    return .failure(ControlError(.invalidArgument, downloads.removalPrompt(for: id).map { "\($0) Add --yes to confirm." }
                        ?? "nothing to remove for \(id)"))
                }
                feed(.removingDownload(sessionID: id.rawValue)) // the player lets go of its file first
                _ = try downloads.remove(id)
                finishPendingPurge(after: "a download was removed") // the room it freed may be what a wipe waits for
            }
        } catch {
            return .failure(ControlError(Self.code(for: error), error.description))
        }
        return .success(.download(downloads.status(of: id).map(DownloadReport.init)))
    }

    private static func code(for error: DownloadCommandError) -> ControlError.Code {
        switch error {
        case .unknownSession, .notDownloaded: .notFound
        case .bundled, .alreadyOnThisBox: .invalidArgument
        case .cannotRemove: .failed
        }
    }
}
