import StillroomCore

/// The `downloads` answer: every download the box knows, and (from the daemon) the sources it reads.
///
///     {"downloads": [DownloadReport…],
///      "sources": [{"url": "https://…/manifest.json", "state": "loaded", "summary": "3 sessions listed",
///                   "remembered": false, "sessions": 3, "failure": {"code", "reason", "advice"}}]}
///
/// `state` is a stable word for scripts (not_loaded, loading, loaded, failed), `summary` a sentence for
/// people; `sessions` comes with loaded, `failure` with failed. Without the daemon the downloads are the
/// database's records and there are no sources (they are the daemon's options).
public struct DownloadsReport: Equatable, Sendable {
    public struct Source: Equatable, Sendable {
        public var url: String
        public var state: String
        public var summary: String
        /// Read from the copy kept on the box: the source has not been reached since the daemon started.
        public var remembered: Bool
        public var sessions: Int?
        public var failure: DownloadReport.Failure?

        public init(url: String, state: String, summary: String, remembered: Bool, sessions: Int? = nil,
                    failure: DownloadReport.Failure? = nil) {
            self.url = url
            self.state = state
            self.summary = summary
            self.remembered = remembered
            self.sessions = sessions
            self.failure = failure
        }

        var json: JSONValue {
            var fields: [String: JSONValue] = ["url": .string(url), "state": .string(state), "summary": .string(summary),
                                               "remembered": .bool(remembered)]
            if let sessions { fields["sessions"] = .number(Double(sessions)) }
            if let failure { fields["failure"] = failure.json }
            return .object(fields)
        }

        init(json: JSONValue) {
            url = json["url"]?.stringValue ?? "?"
            state = json["state"]?.stringValue ?? "?"
            summary = json["summary"]?.stringValue ?? state
            remembered = json["remembered"]?.boolValue ?? false
            sessions = json["sessions"]?.integerValue
            failure = json["failure"].flatMap(DownloadReport.Failure.init(json:))
        }
    }

    public var downloads: [DownloadReport]
    public var sources: [Source]

    public init(downloads: [DownloadReport], sources: [Source]) {
        self.downloads = downloads
        self.sources = sources
    }

    public var json: JSONValue {
        .object(["downloads": .array(downloads.map(\.json)), "sources": .array(sources.map(\.json))])
    }

    /// Reads an answer back; what does not read as a download is left out.
    public init(json: JSONValue) {
        downloads = (json["downloads"]?.arrayValue ?? []).compactMap(DownloadReport.init(json:))
        sources = (json["sources"]?.arrayValue ?? []).map(Source.init(json:))
    }
}
