// The remote manifests: fetched with a size cap, parsed and checked like the bundled catalog
// (CatalogParser.parseManifest), then filtered by the allow-list. A source that fails keeps the
// sessions it listed last time, so a flaky network does not empty the library.

import StillroomCore

extension DownloadManager {
    /// Fetches every configured manifest (those not already loading). `onManifestsChanged` runs as each
    /// one lands; interrupted downloads resume once their session is listed again.
    public func refreshManifests() {
        for index in sources.indices {
            if case .loading = sources[index].state { continue }
            let url = sources[index].url
            sources[index].state = .loading
            let fetch = MemoryFetch(multi: multi, hosts: configuration.policy.hosts, limit: configuration.limits.manifestByteLimit,
                                    maximumRedirects: configuration.policy.maximumRedirects, limits: configuration.limits)
            manifestFetches[index] = fetch
            fetch.start(url) { [unowned self] result in
                manifestFetches[index] = nil
                switch result {
                case .failure(let failure):
                    sources[index].state = .failed(failure)
                    log(.warning, "downloads: manifest \(url): \(failure.reason)")
                case .success(let bytes):
                    let parsed = CatalogParser.parseManifest(bytes, fileName: url.description, manifestURL: url)
                    sources[index].state = .loaded(sessionCount: parsed.catalog.sessions.count)
                    log(.info, "downloads: manifest \(url): \(parsed.catalog.sessions.count) sessions")
                    // A list that could not be read at all keeps the last good one (and its kept copy).
                    if parsed.catalog.sessions.isEmpty && !parsed.problems.isEmpty && sourceSessions[index] != nil {
                        sourceParseProblems[index] = parsed.problems
                        break
                    }
                    sourceSessions[index] = parsed.catalog.sessions
                    sourceParseProblems[index] = parsed.problems
                    sourceEntries[index] = KeptSessionEntry.entries(inManifest: bytes)
                    sources[index].remembered = false
                    keepManifest(bytes, of: index)
                }
                rebuildRemoteSessions()
                keepEntries(listedBy: index)
            }
        }
    }

    /// Merges the sources in configuration order: the first to list an id keeps it; sessions that
    /// clash with a bundled id or use a host off the allow-list are reported and left out.
    func rebuildRemoteSessions() {
        var sessions: [Session] = []
        var ids: Set<ContentID> = []
        for index in sources.indices {
            var problems = sourceParseProblems[index] ?? []
            let fileName = sources[index].url.description
            for session in sourceSessions[index] ?? [] {
                let entry = ContentProblem.Entry.session(session.id)
                if bundledSessionIDs.contains(session.id) {
                    problems.append(ContentProblem(fileName: fileName, entry: entry, field: "id", message: "is the id of a bundled session; skipped"))
                } else if ids.contains(session.id) {
                    problems.append(ContentProblem(fileName: fileName, entry: entry, field: "id", message: "is already listed by an earlier source; skipped"))
                } else if let (field, refusal) = refusal(of: session) {
                    problems.append(ContentProblem(fileName: fileName, entry: entry, field: field, message: refusal))
                } else {
                    sessions.append(session)
                    ids.insert(session.id)
                }
            }
            for problem in problems where !(sources[index].problems.contains(problem)) {
                log(.warning, "downloads: \(problem)")
            }
            sources[index].problems = problems
        }
        remoteSessions = sessions
        onManifestsChanged?()
        resumePending()
    }

    /// The first of a session's addresses the allow-list refuses.
    private func refusal(of session: Session) -> (String, String)? {
        let hosts = configuration.policy.hosts
        if case .remote(let audio) = session.audio, let refusal = hosts.refusal(of: audio.url) { return ("remote.url", refusal) }
        var locations: [(String, AssetLocation)] = [("transcript", session.transcript), ("provenance", session.provenance)]
        if let cues = session.breathCues { locations.append(("breathCues", cues)) }
        for (field, location) in locations {
            if case .remote(let url) = location, let refusal = hosts.refusal(of: url) { return (field, refusal) }
        }
        return nil
    }
}
