import StillroomCore

/// A session as `sessions`, `show` and `favorite` answer it: the one encoding, built by the daemon and by
/// the CLI reading the content folder when the daemon is down, so both print the same fields.
///
///     {"id": "steady-breath", "title": "Steady breath", "theme": "breathe", "description": "…",
///      "duration": 300.024, "durationMeasured": true, "onBox": true, "favorite": false,
///      "license": {"name": "CC BY 4.0", "attribution": "…"}, "bytes": 4800000, "download": {…}}
///
/// `duration` is in seconds: measured from the audio when `durationMeasured`, else the catalog's figure
/// (the daemon measures at start; the CLI alone never does). `bytes` is a remote session's size.
/// `download` (a `DownloadReport`) is there only when the daemon knows of a download: the CLI alone lists
/// the content folder's sessions, which are never downloaded, and knows no manifest.
public struct SessionSummary: Equatable, Sendable {
    public var id: String
    public var title: String
    public var theme: Theme
    public var description: String
    public var duration: Double
    public var durationMeasured: Bool
    /// Playable without a network: bundled, or downloaded (an earlier copy counts).
    public var onBox: Bool
    public var favorite: Bool
    public var licenseName: String
    public var licenseAttribution: String
    public var bytes: Int64?
    public var download: DownloadReport?

    /// - Parameter measuredSeconds: the audio's length when it was measured; nil leaves the catalog's.
    public init(_ session: Session, measuredSeconds: Double?, favorite: Bool, download: DownloadStatus?) {
        id = session.id.rawValue
        title = session.title
        theme = session.theme
        description = session.description
        // Milliseconds are plenty, and a stable figure keeps answers readable.
        duration = ((measuredSeconds ?? session.durationSeconds) * 1000).rounded() / 1000
        durationMeasured = measuredSeconds != nil
        onBox = session.audio.isBundled || download?.isPlayableOffline == true
        self.favorite = favorite
        licenseName = session.license.name
        licenseAttribution = session.license.attribution
        if case .remote(let remote) = session.audio { bytes = Int64(remote.byteCount) }
        self.download = download.map(DownloadReport.init)
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(id), "title": .string(title), "theme": .string(theme.rawValue), "description": .string(description),
            "duration": .number(duration), "durationMeasured": .bool(durationMeasured), "onBox": .bool(onBox), "favorite": .bool(favorite),
            "license": .object(["name": .string(licenseName), "attribution": .string(licenseAttribution)]),
        ]
        if let bytes { fields["bytes"] = .number(Double(bytes)) }
        if let download { fields["download"] = download.json }
        return .object(fields)
    }

    /// Reads an answer's session back; nil when it is not one. Without `durationMeasured` (an older daemon)
    /// the length is not claimed as measured.
    public init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue, let title = json["title"]?.stringValue,
              let theme = json["theme"]?.stringValue.flatMap(Theme.init), let duration = json["duration"]?.doubleValue,
              let onBox = json["onBox"]?.boolValue, let favorite = json["favorite"]?.boolValue else { return nil }
        self.id = id
        self.title = title
        self.theme = theme
        self.description = json["description"]?.stringValue ?? ""
        self.duration = duration
        self.durationMeasured = json["durationMeasured"]?.boolValue ?? false
        self.onBox = onBox
        self.favorite = favorite
        self.licenseName = json["license"]?["name"]?.stringValue ?? ""
        self.licenseAttribution = json["license"]?["attribution"]?.stringValue ?? ""
        self.bytes = json["bytes"]?.integerValue.map(Int64.init)
        self.download = json["download"].flatMap(DownloadReport.init(json:))
    }

    /// The `sessions` answer: `{"sessions": […]}`.
    public static func list(_ sessions: [SessionSummary]) -> JSONValue {
        .object(["sessions": .array(sessions.map(\.json))])
    }

    /// The sessions of a `sessions` answer; those that do not read as sessions are left out.
    public static func list(json: JSONValue) -> [SessionSummary] {
        (json["sessions"]?.arrayValue ?? []).compactMap(SessionSummary.init(json:))
    }
}
