/// What the library, the session detail and settings screens and `stillroomctl downloads` show about
/// one remote session's download. Built from a live job, or from a database record when the daemon is
/// down (the CLI's offline view).
public struct DownloadStatus: Sendable, Hashable {
    /// The states the owner sees (docs/downloads.md).
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Listed by a manifest, not on this box.
        case available
        case queued
        /// Bytes arriving, or waiting to retry after a transient failure (`retryAt` is set then).
        case downloading
        case cancelled
        /// Checking the digest (after a download, or of a copy found at start-up).
        case verifying
        case onThisBox = "on_this_box"
        /// With `failure` saying why and what to do; Retry and Remove apply.
        case failed
    }

    /// Whether a download source offers the session now, as far as the box knows.
    public enum Offer: String, Sendable, Hashable {
        /// A manifest fetched since the box started lists it.
        case current
        /// Only the copy of a manifest kept on the box lists it (the source has not been reached since the
        /// box started): it can be downloaded once the box is online.
        case remembered
        /// Every source's latest list leaves it out; a copy on the box still plays, from its kept entry.
        case withdrawn
    }

    public var sessionID: String
    public var state: State
    public var offer: Offer
    public var bytesDone: Int64
    /// The manifest's size, when known.
    public var bytesTotal: Int64?
    /// Why it failed (`failed`), or the transient failure being retried (`downloading`).
    public var failure: DownloadFailure?
    /// When the next attempt is due, while waiting to retry.
    public var retryAt: MonotonicInstant?
    /// A verified earlier copy is still on this box and plays (during or after a failed update).
    public var previousCopyOnThisBox: Bool

    public init(sessionID: String, state: State, bytesDone: Int64 = 0, bytesTotal: Int64? = nil,
                failure: DownloadFailure? = nil, retryAt: MonotonicInstant? = nil, previousCopyOnThisBox: Bool = false,
                offer: Offer = .current) {
        self.sessionID = sessionID
        self.state = state
        self.offer = offer
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
        self.failure = failure
        self.retryAt = retryAt
        self.previousCopyOnThisBox = previousCopyOnThisBox
    }

    /// The status of a live job.
    public init(job: DownloadJob) {
        let total = job.target.byteCount
        let id = job.target.sessionID.rawValue
        let previous = job.keepsPreviousCopy
        switch job.phase {
        case .queued:
            self.init(sessionID: id, state: .queued, bytesDone: job.bytesDone, bytesTotal: total, previousCopyOnThisBox: previous)
        case .downloading:
            self.init(sessionID: id, state: .downloading, bytesDone: job.bytesDone, bytesTotal: total, previousCopyOnThisBox: previous)
        case .waitingToRetry(let due, let failure):
            self.init(sessionID: id, state: .downloading, bytesDone: job.bytesDone, bytesTotal: total, failure: failure,
                      retryAt: due, previousCopyOnThisBox: previous)
        case .verifying, .installing:
            self.init(sessionID: id, state: .verifying, bytesDone: total, bytesTotal: total, previousCopyOnThisBox: previous)
        case .installed:
            self.init(sessionID: id, state: .onThisBox, bytesDone: total, bytesTotal: total)
        case .cancelled:
            self.init(sessionID: id, state: .cancelled, bytesTotal: total, previousCopyOnThisBox: previous)
        case .failed(let failure):
            self.init(sessionID: id, state: .failed, bytesTotal: total, failure: failure, previousCopyOnThisBox: previous)
        }
    }

    /// The status a database record describes (what the CLI shows when the daemon is down).
    public init(record: AudioDownloadRecord) {
        let state: State = switch record.state {
        case .queued: .queued
        case .downloading: .downloading
        case .complete: .onThisBox
        case .failed: .failed
        case .cancelled: .cancelled
        }
        self.init(sessionID: record.sessionID, state: state, bytesDone: record.state == .complete ? (record.bytesTotal ?? record.bytesDone) : record.bytesDone,
                  bytesTotal: record.bytesTotal,
                  failure: record.state == .failed ? DownloadFailure(recordText: record.error ?? "The download failed.") : nil)
    }

    /// Whole percent done while downloading; nil when the size is unknown.
    public var percent: Int? {
        guard let bytesTotal, bytesTotal > 0 else { return nil }
        return Int(min(100, max(0, bytesDone * 100 / bytesTotal)))
    }

    /// Whether the session can be played now without a network.
    public var isPlayableOffline: Bool { state == .onThisBox || previousCopyOnThisBox }

    /// The commands that apply now.
    public var canDownload: Bool { state == .available || state == .cancelled || state == .failed }
    public var canCancel: Bool { state == .queued || state == .downloading || state == .verifying }
    public var canRemove: Bool { state == .onThisBox || state == .failed || state == .cancelled || previousCopyOnThisBox }

    /// One line for a list or the CLI: "Downloading 1.2 MB of 4.8 MB (25%)".
    /// - Parameter now: the loop's time, to say how soon a retry is due; nil leaves that out.
    public func summary(now: MonotonicInstant? = nil) -> String {
        let size = bytesTotal.map { ByteCountText.text($0) }
        switch state {
        case .available where offer == .remembered:
            return size.map { "Available to download when the box is online (\($0))" } ?? "Available to download when the box is online"
        case .available:
            return size.map { "Available to download (\($0))" } ?? "Available to download"
        case .queued:
            return "Waiting to download"
        case .downloading:
            var text = "Downloading \(ByteCountText.text(bytesDone))"
            if let size, let percent { text += " of \(size) (\(percent)%)" }
            if let failure, let retryAt {
                text += " — \(failure.reason)"
                if let now {
                    let seconds = max(0, Int(((retryAt - now).seconds).rounded(.up)))
                    text += " Trying again in \(seconds) s."
                } else {
                    text += " Trying again soon."
                }
            }
            return text
        case .verifying:
            return "Checking the download"
        case .onThisBox:
            let text = size.map { "On this box (\($0))" } ?? "On this box"
            return offer == .withdrawn ? text + "; no longer offered" : text
        case .cancelled:
            return previousCopyOnThisBox ? "Update cancelled; the earlier copy is still on this box" : "Download cancelled"
        case .failed:
            let reason = failure?.reason ?? "The download failed."
            return previousCopyOnThisBox ? "Update failed: \(reason) The earlier copy is still on this box." : "Download failed: \(reason)"
        }
    }
}
