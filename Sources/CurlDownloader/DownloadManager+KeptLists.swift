// What the box keeps so downloaded and offered sessions survive a restart without a network:
//
// - each downloaded session's manifest entry, beside its recording (`<id>.session.json`, KeptSessionEntry):
//   the session plays and shows with its title, licence and transcript though no manifest lists it;
// - each source's last good manifest with its signature (`sources/<hash of its address>.signed`: the 64
//   bytes of the signature, then the list): sessions not downloaded still show, marked as needing the
//   network, until the source is reached again. One file, written atomically, so a power cut never leaves a
//   list without its signature; the copy is checked again when read, and its version is the floor a newer
//   list must not go below.

import CryptoHash
import StillroomCore
import SystemCalls

extension DownloadManager {
    /// The session a downloaded copy's kept entry describes (when the copy is on the box).
    func keptSession(_ id: ContentID) -> Session? {
        guard records[id.rawValue]?.state == .complete else { return nil }
        return keptEntries[id]
    }

    /// Reads the kept entries of the sessions on the box. Called at start, after reconciling.
    func loadKeptEntries() {
        keptEntries = [:]
        for (key, record) in records.sorted(by: { $0.key < $1.key }) where record.state == .complete {
            guard let id = try? ContentID(validating: key) else { continue }
            let file = path(.entry, id)
            guard let bytes = DownloadFiles.read(file, limit: configuration.limits.manifestByteLimit) else {
                log(.info, "downloads: \(id) has no kept entry yet; it shows once a list of sessions names it")
                continue
            }
            switch KeptSessionEntry.decode(bytes, fileName: file) {
            case .success(let session) where session.id == id:
                keptEntries[id] = session
            case .success(let session):
                log(.warning, "downloads: \(file) describes \(session.id), not \(id); ignored")
            case .failure(let problem):
                log(.warning, "downloads: the kept entry of \(id) is unusable: \(problem)")
            }
        }
    }

    /// The bytes to keep for `id`: its entry in the first list that offers it.
    func entryBytes(for id: ContentID) -> [UInt8]? {
        for index in sources.indices where (sourceSessions[index] ?? []).contains(where: { $0.id == id }) {
            if let entry = sourceEntries[index]?[id] { return KeptSessionEntry.encode(entry: entry, manifestURL: sources[index].url) }
        }
        return nil
    }

    /// After a list was fetched: keeps (or brings up to date) the entry of every copy on the box it
    /// describes with the same recording. Copies made before entries were kept get theirs here.
    func keepEntries(listedBy index: Int) {
        var wrote = false
        for session in sourceSessions[index] ?? [] {
            guard let record = records[session.id.rawValue], record.state == .complete,
                  let target = DownloadTarget(session: session), record.sha256 == target.sha256.hex,
                  remoteSession(session.id) == session, let bytes = entryBytes(for: session.id) else { continue }
            let file = path(.entry, session.id)
            if DownloadFiles.read(file, limit: configuration.limits.manifestByteLimit) == bytes { continue }
            do {
                try DownloadFiles.writeAtomically(bytes, to: file)
                keptEntries[session.id] = session
                wrote = true
            } catch {
                log(.warning, "downloads: could not keep the entry of \(session.id): \(error)")
            }
        }
        if wrote { syncFolder() }
    }

    // MARK: Manifests kept on the box

    /// Where the last good manifest of source `index` is kept, with its signature.
    func keptManifestPath(_ index: Int) -> String {
        keptManifestStem(index) + ".signed"
    }

    /// Where firmware from before lists were signed kept it (alone): removed when found.
    private func unsignedManifestPath(_ index: Int) -> String {
        keptManifestStem(index) + ".json"
    }

    private func keptManifestStem(_ index: Int) -> String {
        let name = String(SHA256Hasher.digest(Array(sources[index].url.description.utf8)).hex.prefix(24))
        return directory + "/" + DownloadLayout.manifestCacheDirectoryName + "/" + name
    }

    /// Lists each source's sessions from its kept manifest, until the source is reached. Called at start.
    func loadKeptManifests() {
        // The kept copies are found by a digest of their source's address.
        if !sources.isEmpty, let reason = SHA256Hasher.loadLibrary() {
            log(.error, "downloads: the kept session lists cannot be read: \(reason)")
            return
        }
        for index in sources.indices {
            if Files.isRegularFile(unsignedManifestPath(index)) {
                // Never read: a list kept before lists were signed vouches for nothing.
                do {
                    try DownloadFiles.remove(unsignedManifestPath(index))
                    log(.info, "downloads: removed the unsigned list kept for \(sources[index].url) (kept before lists were signed)")
                } catch {
                    log(.warning, "downloads: the unsigned list kept for \(sources[index].url) is not used and could not be removed: \(error)")
                }
            }
            let limit = configuration.limits.manifestByteLimit + Int64(SignedList.signatureByteCount)
            guard let kept = DownloadFiles.read(keptManifestPath(index), limit: limit) else { continue }
            let signature = Array(kept.prefix(SignedList.signatureByteCount))
            let bytes = Array(kept.dropFirst(SignedList.signatureByteCount))
            let version: Int
            switch trustedVersion(of: bytes, signature: signature) {
            case .failure(let refusal):
                // Changed on the card, or signed by a key the box no longer trusts: listed again when the
                // source is reached.
                log(.warning, "downloads: the kept list of \(sources[index].url) is not used: \(refusal.reason)")
                continue
            case .success(let checked):
                version = checked
            }
            keptLists[index] = (version, bytes)
            let parsed = CatalogParser.parseManifest(bytes, fileName: sources[index].url.description, manifestURL: sources[index].url)
            sourceSessions[index] = parsed.catalog.sessions
            sourceParseProblems[index] = parsed.problems
            sourceEntries[index] = KeptSessionEntry.entries(inManifest: bytes)
            sources[index].remembered = true
            log(.info, "downloads: \(parsed.catalog.sessions.count) sessions listed by the kept copy of \(sources[index].url)")
        }
        rebuildRemoteSessions()
    }

    /// Keeps a manifest that was fetched and read, replacing the copy kept before.
    func keepManifest(_ bytes: [UInt8], signature: [UInt8], of index: Int) {
        let file = keptManifestPath(index)
        do {
            try DownloadFiles.writeAtomically(signature + bytes, to: file)
            try DownloadFiles.syncDirectory(directory + "/" + DownloadLayout.manifestCacheDirectoryName)
        } catch {
            log(.warning, "downloads: could not keep a copy of \(sources[index].url): \(error)")
        }
    }

    /// Whether a source offers `id`, as far as the box knows.
    func offer(of id: ContentID) -> DownloadStatus.Offer {
        if let index = sources.indices.first(where: { (sourceSessions[$0] ?? []).contains { $0.id == id } }),
           remoteSessions.contains(where: { $0.id == id }) {
            return sources[index].remembered ? .remembered : .current
        }
        // Withdrawn only when every source has a list to go by; otherwise the box cannot know.
        return sources.indices.allSatisfy({ sourceSessions[$0] != nil }) ? .withdrawn : .remembered
    }
}
