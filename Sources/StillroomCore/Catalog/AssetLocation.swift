/// Where a file belonging to a session lives: inside the bundled content folder, or at a URL.
///
/// The bundled catalog names content-folder paths; the remote manifest names URLs (already resolved
/// against the manifest's address by the parser), which the downloader fetches.
public enum AssetLocation: Sendable, Hashable {
    case bundled(RelativePath)
    case remote(RemoteURL)
}

/// A session's recording: a bundled file, or a download with a known size and digest.
public enum AudioSource: Sendable, Hashable {
    case bundled(RelativePath)
    case remote(RemoteAudio)

    /// True for recordings that ship in the content folder and play with no network.
    public var isBundled: Bool {
        if case .bundled = self { return true }
        return false
    }
}

/// A recording the box may download: where from, and exactly what it must receive.
public struct RemoteAudio: Sendable, Hashable {
    /// Already checked with `RemoteURL.isPermittedForDownload`.
    public var url: RemoteURL
    /// The exact size in bytes (> 0); the downloader also uses it as the cap and for the disk-space check.
    public var byteCount: Int
    /// The digest the finished file must have before it replaces anything.
    public var sha256: SHA256Digest

    public init(url: RemoteURL, byteCount: Int, sha256: SHA256Digest) {
        self.url = url
        self.byteCount = byteCount
        self.sha256 = sha256
    }
}
