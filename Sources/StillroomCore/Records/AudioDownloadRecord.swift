/// Where a download of a remote session's audio stands (table `audio_download`).
public enum AudioDownloadState: String, CaseIterable, Hashable, Sendable {
    case queued
    case downloading
    case complete
    case failed
    case cancelled
}

/// One session's download (table `audio_download`), one row per session.
public struct AudioDownloadRecord: Hashable, Sendable {
    /// The catalog session id.
    public var sessionID: String
    /// Where the finished file lives (or will live) under the data directory.
    public var localPath: String
    public var state: AudioDownloadState
    /// Bytes written so far (to the .part file while downloading).
    public var bytesDone: Int64
    /// The expected size from the manifest; nil when unknown.
    public var bytesTotal: Int64?
    /// The expected SHA-256 (lowercase hex) from the manifest; nil when unknown.
    public var sha256: String?
    /// A human-readable reason, set in the `failed` state.
    public var error: String?
    public var updatedAt: UnixMilliseconds

    public init(
        sessionID: String, localPath: String, state: AudioDownloadState, bytesDone: Int64 = 0,
        bytesTotal: Int64? = nil, sha256: String? = nil, error: String? = nil, updatedAt: UnixMilliseconds
    ) {
        self.sessionID = sessionID
        self.localPath = localPath
        self.state = state
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
        self.sha256 = sha256
        self.error = error
        self.updatedAt = updatedAt
    }
}
