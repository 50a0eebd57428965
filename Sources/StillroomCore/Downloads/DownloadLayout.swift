/// Where downloads live: one flat folder, `downloads/` under the data directory, with files named by
/// session id. Ids are `a-z 0-9 -` (no dots), so the part after the first dot says what a file is.
///
/// | file | what |
/// |---|---|
/// | `<id>.mp3` | the verified recording |
/// | `<id>.mp3.part` | a recording being downloaded |
/// | `<id>.transcript.vtt`, `<id>.breath.json`, `<id>.provenance.json` | the files that come with it |
/// | `<id>.session.json` | the session's whole manifest entry, so it plays and shows with no network |
/// | `<name>.tmp` | a side file being written (never valid after a restart) |
public enum DownloadLayout {
    /// The folder under the data directory.
    public static let directoryName = "downloads"

    public enum FileRole: String, Sendable, Hashable, CaseIterable {
        case audio
        case partial
        case transcript
        case breathCues
        case provenance
        /// The manifest entry (title, theme, description, licence…) kept with the recording.
        case entry
        /// A side file being written; removed at start-up.
        case temporary

        var suffix: String {
            switch self {
            case .audio: "mp3"
            case .partial: "mp3.part"
            case .transcript: "transcript.vtt"
            case .breathCues: "breath.json"
            case .provenance: "provenance.json"
            case .entry: "session.json"
            case .temporary: "tmp"
            }
        }
    }

    /// The file's name inside the downloads folder. `.temporary` names the temporary of a side file:
    /// pass the side file's role through `temporaryName(for:)` instead.
    public static func fileName(_ role: FileRole, for id: ContentID) -> String {
        "\(id.rawValue).\(role.suffix)"
    }

    /// The temporary name a side file is written under before its rename.
    public static func temporaryName(for finalName: String) -> String { finalName + ".tmp" }

    /// Every role a session's files can have on the box, the temporary excepted: what removal deletes.
    public static let sessionFileRoles: [FileRole] = [.audio, .partial, .transcript, .breathCues, .provenance, .entry]

    /// The folder inside the downloads folder where the last good copy of each source's manifest is kept.
    public static let manifestCacheDirectoryName = "sources"

    /// The recording's path relative to the data directory, as `AudioDownloadRecord.localPath` keeps it.
    public static func localPath(for id: ContentID) -> String { "\(directoryName)/\(fileName(.audio, for: id))" }

    /// Which session a file in the downloads folder belongs to, and what it is; nil for names this
    /// layout never makes (those are left alone).
    public static func classify(_ name: String) -> (id: ContentID, role: FileRole)? {
        guard let dot = name.firstIndex(of: "."), let id = try? ContentID(validating: String(name[..<dot])) else { return nil }
        let suffix = name[name.index(after: dot)...]
        if suffix.hasSuffix(".tmp") { return (id, .temporary) }
        guard let role = FileRole.allCases.first(where: { $0 != .temporary && $0.suffix == suffix }) else { return nil }
        return (id, role)
    }
}
