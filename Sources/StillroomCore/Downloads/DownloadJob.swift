// The download of one session's recording, as a pure state machine: events in (from the user, the
// HTTP transfer, the verifier, timers), effects out (start or stop a transfer, schedule a retry, verify,
// install, remove the partial file, save the record). The manager in CurlDownloader performs the effects
// and feeds back what happened; nothing here does I/O or reads a clock.
//
//     queued ──start──▶ downloading ──ended(all bytes)──▶ verifying ──digest ok──▶ installing ──▶ installed
//        ▲                 │   ▲                                  └─mismatch─▶ failed
//        │ request         │   └──retryDue── waitingToRetry ◀──transient failure (backoff)
//     failed/cancelled ◀───┴── permanent failure, too many retries, cancel

/// What to download: the manifest's promise about one recording.
public struct DownloadTarget: Sendable, Hashable {
    public var sessionID: ContentID
    public var url: RemoteURL
    /// The exact size; also the cap on what the server may send.
    public var byteCount: Int64
    public var sha256: SHA256Digest

    public init(sessionID: ContentID, url: RemoteURL, byteCount: Int64, sha256: SHA256Digest) {
        self.sessionID = sessionID
        self.url = url
        self.byteCount = byteCount
        self.sha256 = sha256
    }

    /// The target of a manifest session; nil for a bundled one.
    public init?(session: Session) {
        guard case .remote(let remote) = session.audio else { return nil }
        self.init(sessionID: session.id, url: remote.url, byteCount: Int64(remote.byteCount), sha256: remote.sha256)
    }
}

/// The time and randomness an event is handled with, read once by the caller.
public struct DownloadMoment: Sendable, Hashable {
    /// The loop's monotonic time: retries are scheduled on it.
    public var now: MonotonicInstant
    /// Wall-clock milliseconds, stored as `updatedAt`.
    public var wall: UnixMilliseconds
    /// A value in 0 ..< 1 from the caller's random source, for retry jitter.
    public var randomUnit: Double

    public init(now: MonotonicInstant, wall: UnixMilliseconds, randomUnit: Double = 0.5) {
        self.now = now
        self.wall = wall
        self.randomUnit = randomUnit
    }
}

/// Free space where the download is written, measured just before a transfer starts.
public struct SpaceReport: Sendable, Hashable {
    /// nil when it could not be measured (the write-time checks still apply).
    public var availableBytes: Int64?
    /// Downloaded sessions that could be removed, for the message if space is short.
    public var removable: [RemovableDownload]

    public init(availableBytes: Int64?, removable: [RemovableDownload] = []) {
        self.availableBytes = availableBytes
        self.removable = removable
    }
}

/// Where a download stands.
public enum DownloadPhase: Sendable, Hashable {
    /// Waiting for the transfer slot (one download runs at a time).
    case queued
    /// A transfer is running (or being set up).
    case downloading
    /// A transient failure; the next attempt is due at the instant given.
    case waitingToRetry(at: MonotonicInstant, after: DownloadFailure)
    /// All bytes arrived; the digest is being compared.
    case verifying
    /// Verified; being moved into place.
    case installing
    case installed
    case cancelled
    case failed(DownloadFailure)

    /// True while the job still wants the transfer slot or is finishing.
    public var isActive: Bool {
        switch self {
        case .queued, .downloading, .waitingToRetry, .verifying, .installing: true
        case .installed, .cancelled, .failed: false
        }
    }
}

/// What happened, as the manager reports it.
public enum DownloadEvent: Sendable, Hashable {
    /// The job got the transfer slot; the space where it writes was just measured.
    case start(SpaceReport)
    /// A response's status line and headers arrived (before any of its body).
    case response(ResponseHead)
    /// Bytes of the recording now in the `.part` file (counted from the file's start).
    case progress(bytesDone: Int64)
    /// The transfer finished without a transport error, with this many bytes in the `.part` file.
    case transferEnded(bytesDone: Int64)
    case transferFailed(DownloadFailure)
    /// The digest of the finished `.part` file.
    case verified(SHA256Digest)
    /// The file was moved into place and its directory synced.
    case installed
    case installFailed(DownloadFailure)
    /// The owner cancelled.
    case cancel
    /// The retry timer fired; the space was just measured again.
    case retryDue(SpaceReport)
    /// The owner asked again after a failure or a cancel.
    case request
}

/// What the manager must do.
public enum DownloadEffect: Sendable, Hashable {
    /// Request `url`, asking for the bytes from `offset` on (a Range request when offset > 0).
    case startTransfer(url: RemoteURL, offset: Int64)
    /// Stop the running transfer, if any, without reporting its end.
    case stopTransfer
    /// The server ignored the Range request and sends the whole file: empty the `.part` file and
    /// restart the digest before writing this response's body.
    case discardPartialBytes
    case scheduleRetry(at: MonotonicInstant)
    case cancelRetry
    /// Finish the digest of the `.part` file (fsync it) and report `.verified`.
    case verify
    /// fsync'd and verified: rename `.part` over the final name, fsync the directory, report `.installed`.
    case install
    /// Delete the `.part` file (never the installed copy).
    case removePartial
    case saveRecord(AudioDownloadRecord)
}

/// One session's download. Create it with `queue(...)` or `resume(...)`, then feed it events.
public struct DownloadJob: Sendable, Hashable {
    public let target: DownloadTarget
    /// Where the finished file lives, relative to the data directory (`downloads/<id>.mp3`).
    public let localPath: String
    /// A verified earlier copy is on the box (this is an update or a repair): it stays playable, and the
    /// record keeps describing it until the new file is installed. A failed or cancelled update leaves
    /// the record alone.
    public let keepsPreviousCopy: Bool
    public let policy: DownloadPolicy
    public private(set) var phase: DownloadPhase
    /// Bytes in the `.part` file.
    public private(set) var bytesDone: Int64
    /// Where the current request goes (after redirects).
    public private(set) var currentURL: RemoteURL
    public private(set) var redirectsFollowed = 0
    /// Transient failures in a row without a new byte.
    public private(set) var failuresWithoutProgress = 0
    /// Whether the current response's body belongs in the `.part` file.
    public private(set) var isReceivingBody = false
    private var bytesAtLastFailure: Int64 = -1
    private var lastSavedAt: MonotonicInstant?
    /// The offset the running request asked for.
    private var requestedOffset: Int64 = 0

    init(target: DownloadTarget, localPath: String, keepsPreviousCopy: Bool, policy: DownloadPolicy, bytesDone: Int64) {
        self.target = target
        self.localPath = localPath
        self.keepsPreviousCopy = keepsPreviousCopy
        self.policy = policy
        self.phase = .queued
        self.bytesDone = bytesDone
        self.currentURL = target.url
    }

    /// A new download, queued. Its first record is saved (unless an earlier copy's record must stay).
    public static func queue(_ target: DownloadTarget, localPath: String, keepsPreviousCopy: Bool = false,
                             policy: DownloadPolicy, at moment: DownloadMoment) -> (DownloadJob, [DownloadEffect]) {
        let job = DownloadJob(target: target, localPath: localPath, keepsPreviousCopy: keepsPreviousCopy, policy: policy, bytesDone: 0)
        return (job, job.keepsPreviousCopy ? [] : [.saveRecord(job.record(.queued, wall: moment.wall))])
    }

    /// A download interrupted by a restart, continuing from the `partBytes` already in its `.part` file
    /// (the manager re-reads them into the digest before the transfer starts).
    public static func resume(_ target: DownloadTarget, localPath: String, partBytes: Int64, policy: DownloadPolicy) -> DownloadJob {
        DownloadJob(target: target, localPath: localPath, keepsPreviousCopy: false, policy: policy,
                    bytesDone: min(max(0, partBytes), target.byteCount))
    }

    /// Feeds one event; returns the effects to perform, in order. Events that do not apply to the
    /// current phase (a late progress report after a cancel) are ignored.
    public mutating func handle(_ event: DownloadEvent, at moment: DownloadMoment) -> [DownloadEffect] {
        switch (phase, event) {
        case (.queued, .start(let space)), (.waitingToRetry, .retryDue(let space)):
            return begin(space, at: moment)
        case (.downloading, .response(let head)):
            return receive(head, at: moment)
        case (.downloading, .progress(let bytes)):
            return progress(bytes, at: moment)
        case (.downloading, .transferEnded(let bytes)):
            guard isReceivingBody else {
                return fail(.badResponse("the transfer ended before a response"), at: moment)
            }
            bytesDone = bytes
            isReceivingBody = false
            if bytes == target.byteCount {
                phase = .verifying
                return [.verify]
            }
            if bytes > target.byteCount {
                return fail(.oversize(bytes: bytes, limit: target.byteCount), at: moment)
            }
            return failAttempt(.endedEarly(received: bytes, expected: target.byteCount), at: moment)
        case (.downloading, .transferFailed(let failure)):
            isReceivingBody = false
            return failAttempt(failure, at: moment)
        case (.verifying, .verified(let digest)):
            guard digest == target.sha256 else {
                return fail(.checksumMismatch(expected: target.sha256, actual: digest), at: moment)
            }
            phase = .installing
            return [.install]
        case (.verifying, .transferFailed(let failure)), (.installing, .installFailed(let failure)):
            return fail(failure, at: moment)
        case (.installing, .installed):
            phase = .installed
            bytesDone = target.byteCount
            return [.saveRecord(record(.complete, wall: moment.wall))]
        case (.queued, .cancel), (.downloading, .cancel), (.waitingToRetry, .cancel), (.verifying, .cancel):
            phase = .cancelled
            bytesDone = 0
            isReceivingBody = false
            var effects: [DownloadEffect] = [.stopTransfer, .cancelRetry, .removePartial]
            if !keepsPreviousCopy { effects.append(.saveRecord(record(.cancelled, wall: moment.wall))) }
            return effects
        case (.failed, .request), (.cancelled, .request):
            phase = .queued
            bytesDone = 0
            failuresWithoutProgress = 0
            bytesAtLastFailure = -1
            return keepsPreviousCopy ? [] : [.saveRecord(record(.queued, wall: moment.wall))]
        default:
            return []
        }
    }

    // MARK: Transitions

    private mutating func begin(_ space: SpaceReport, at moment: DownloadMoment) -> [DownloadEffect] {
        if let refusal = policy.hosts.refusal(of: target.url) {
            return fail(.refusedURL(refusal), at: moment)
        }
        if let available = space.availableBytes {
            let needed = target.byteCount - bytesDone + policy.reserveBytes
            if available < needed {
                let shortage = SpaceShortage(neededBytes: needed, availableBytes: available, reserveBytes: policy.reserveBytes,
                                             removable: space.removable)
                return fail(.diskFull(shortage), at: moment)
            }
        }
        phase = .downloading
        currentURL = target.url
        redirectsFollowed = 0
        requestedOffset = bytesDone
        isReceivingBody = false
        lastSavedAt = moment.now
        var effects: [DownloadEffect] = [.startTransfer(url: currentURL, offset: bytesDone)]
        if !keepsPreviousCopy { effects.append(.saveRecord(record(.downloading, wall: moment.wall))) }
        return effects
    }

    private mutating func receive(_ head: ResponseHead, at moment: DownloadMoment) -> [DownloadEffect] {
        switch head.status {
        case 300...399:
            switch policy.hosts.followRedirect(from: currentURL, location: head.location) {
            case .failure(let failure):
                return fail(failure, at: moment)
            case .success(let next):
                guard redirectsFollowed < policy.maximumRedirects else {
                    return fail(.tooManyRedirects(policy.maximumRedirects), at: moment)
                }
                redirectsFollowed += 1
                currentURL = next
                requestedOffset = bytesDone
                return [.stopTransfer, .startTransfer(url: next, offset: bytesDone)]
            }
        case 206:
            guard let range = head.contentRange else {
                return fail(.badResponse("a partial answer (206) without a usable Content-Range"), at: moment)
            }
            if let complete = range.completeLength, complete != target.byteCount {
                return complete > target.byteCount
                    ? fail(.oversize(bytes: complete, limit: target.byteCount), at: moment)
                    : fail(.sizeMismatch(server: complete, manifest: target.byteCount), at: moment)
            }
            guard range.first == requestedOffset, range.first == bytesDone else {
                return fail(.badResponse("asked for the bytes from \(requestedOffset), got them from \(range.first)"), at: moment)
            }
            if let length = head.contentLength, bytesDone + length > target.byteCount {
                return fail(.oversize(bytes: bytesDone + length, limit: target.byteCount), at: moment)
            }
            isReceivingBody = true
            return []
        case 200...299:
            if let length = head.contentLength, length != target.byteCount {
                return length > target.byteCount
                    ? fail(.oversize(bytes: length, limit: target.byteCount), at: moment)
                    : fail(.sizeMismatch(server: length, manifest: target.byteCount), at: moment)
            }
            isReceivingBody = true
            guard bytesDone > 0 else { return [] }
            // The server ignored the Range request: its body is the whole file.
            bytesDone = 0
            return [.discardPartialBytes]
        default:
            return failAttempt(.httpStatus(head.status), at: moment)
        }
    }

    private mutating func progress(_ bytes: Int64, at moment: DownloadMoment) -> [DownloadEffect] {
        bytesDone = bytes
        if bytes > target.byteCount {
            return fail(.oversize(bytes: bytes, limit: target.byteCount), at: moment)
        }
        guard !keepsPreviousCopy, let last = lastSavedAt, moment.now - last >= policy.progressSaveInterval else { return [] }
        lastSavedAt = moment.now
        return [.saveRecord(record(.downloading, wall: moment.wall))]
    }

    /// One attempt failed: retry transient failures with backoff, give up on the rest.
    private mutating func failAttempt(_ failure: DownloadFailure, at moment: DownloadMoment) -> [DownloadEffect] {
        guard failure.isTransient else { return fail(failure, at: moment) }
        if bytesDone > bytesAtLastFailure {
            failuresWithoutProgress = 1
        } else {
            failuresWithoutProgress += 1
        }
        bytesAtLastFailure = bytesDone
        guard failuresWithoutProgress < policy.retry.maximumAttemptsWithoutProgress else {
            return fail(.gaveUp(attempts: failuresWithoutProgress, last: failure), at: moment)
        }
        isReceivingBody = false
        let due = moment.now + policy.retry.delay(forRetry: failuresWithoutProgress, randomUnit: moment.randomUnit)
        phase = .waitingToRetry(at: due, after: failure)
        var effects: [DownloadEffect] = [.stopTransfer, .scheduleRetry(at: due)]
        if !keepsPreviousCopy {
            lastSavedAt = moment.now
            effects.append(.saveRecord(record(.downloading, wall: moment.wall)))
        }
        return effects
    }

    /// The download as a whole failed: the partial file goes, an earlier copy stays.
    private mutating func fail(_ failure: DownloadFailure, at moment: DownloadMoment) -> [DownloadEffect] {
        phase = .failed(failure)
        bytesDone = 0
        isReceivingBody = false
        var effects: [DownloadEffect] = [.stopTransfer, .cancelRetry, .removePartial]
        if !keepsPreviousCopy { effects.append(.saveRecord(record(.failed, wall: moment.wall, error: failure.recordText))) }
        return effects
    }

    /// The database row for this job in `state`.
    public func record(_ state: AudioDownloadState, wall: UnixMilliseconds, error: String? = nil) -> AudioDownloadRecord {
        AudioDownloadRecord(sessionID: target.sessionID.rawValue, localPath: localPath, state: state,
                            bytesDone: state == .complete ? target.byteCount : bytesDone, bytesTotal: target.byteCount,
                            sha256: target.sha256.hex, error: error, updatedAt: wall)
    }
}
