// The remote manifests: fetched with a size cap, their signature fetched and checked with the maker's keys
// and their version compared with the list taken before (SignedList) before a byte is parsed; then parsed
// and checked like the bundled catalog (CatalogParser.parseManifest) and filtered by the allow-list. A
// source that fails, or sends a list the keys do not vouch for, keeps the sessions it listed last time, so
// a flaky network (or a host taken over) does not empty the library.

import CryptoHash
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
                    fetchSignature(of: bytes, index: index)
                    return
                }
                rebuildRemoteSessions()
            }
        }
    }

    /// The second half of a source's refresh: its list's signature, then the list itself if it holds.
    private func fetchSignature(of bytes: [UInt8], index: Int) {
        let url = sources[index].url
        guard let signatureURL = SignedList.signatureURL(of: url) else {
            refuse(index, "its address ends in a folder, so it has no signature file beside it")
            return
        }
        let fetch = MemoryFetch(multi: multi, hosts: configuration.policy.hosts, limit: Int64(SignedList.signatureByteCount) * 4,
                                maximumRedirects: configuration.policy.maximumRedirects, limits: configuration.limits)
        manifestFetches[index] = fetch
        fetch.start(signatureURL) { [unowned self] result in
            manifestFetches[index] = nil
            switch result {
            case .failure(let failure) where failure.isTransient:
                // The network, not the list: tried again at the next refresh like any fetch.
                sources[index].state = .failed(failure)
                log(.warning, "downloads: the signature of \(url): \(failure.reason)")
                rebuildRemoteSessions()
            case .failure(let failure):
                refuse(index, "its signature \(signatureURL) could not be fetched (\(failure.reason.dropLast()))")
            case .success(let signature):
                take(bytes, signature: signature, index: index)
            }
        }
    }

    /// Takes a fetched list whose signature arrived: checked, then parsed and kept.
    private func take(_ bytes: [UInt8], signature: [UInt8], index: Int) {
        let url = sources[index].url
        let version: Int
        switch trustedVersion(of: bytes, signature: signature) {
        case .failure(let refusal):
            refuse(index, refusal.reason)
            return
        case .success(let checked):
            version = checked
        }
        if let refusal = SignedList.replayRefusal(version: version, bytes: bytes, kept: keptLists[index]) {
            refuse(index, refusal.reason)
            return
        }
        let parsed = CatalogParser.parseManifest(bytes, fileName: url.description, manifestURL: url)
        sources[index].state = .loaded(sessionCount: parsed.catalog.sessions.count)
        log(.info, "downloads: manifest \(url) (version \(version)): \(parsed.catalog.sessions.count) sessions")
        // A list that could not be read at all keeps the last good one (and its kept copy).
        if parsed.catalog.sessions.isEmpty && !parsed.problems.isEmpty && sourceSessions[index] != nil {
            sourceParseProblems[index] = parsed.problems
        } else {
            sourceSessions[index] = parsed.catalog.sessions
            sourceParseProblems[index] = parsed.problems
            sourceEntries[index] = KeptSessionEntry.entries(inManifest: bytes)
            sources[index].remembered = false
            keptLists[index] = (version, bytes)
            keepManifest(bytes, signature: signature, of: index)
        }
        rebuildRemoteSessions()
        keepEntries(listedBy: index)
    }

    /// The version of a list the maker's keys vouch for, or why it is refused. Nothing of the list is
    /// parsed before its signature holds.
    func trustedVersion(of bytes: [UInt8], signature: [UInt8]) -> Result<Int, InvalidValue> {
        let checker: ContentSignatureChecker
        switch signatureChecker {
        case .failure(let problem): return .failure(problem)
        case .success(let ready): checker = ready
        }
        guard signature.count == SignedList.signatureByteCount else {
            return .failure(InvalidValue("its signature is \(signature.count) bytes, not the \(SignedList.signatureByteCount) of an Ed25519 signature"))
        }
        guard checker.signer(of: bytes, signature: signature) != nil else {
            return .failure(InvalidValue("its signature is not the maker's (no key of \(configuration.contentKeys.source) verifies it)"))
        }
        return SignedList.version(of: bytes).mapError { InvalidValue("it is signed, but \($0.reason)") }
    }

    /// A source's list is not used: the sessions it listed before stay, and so does its kept copy.
    private func refuse(_ index: Int, _ detail: String) {
        sources[index].state = .failed(.untrustedList(detail))
        log(.warning, "downloads: manifest \(sources[index].url): not used: \(detail)")
        rebuildRemoteSessions()
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
