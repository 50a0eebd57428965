import StillroomCore

/// The `history recent` answer: the most recent runs, newest first.
///
///     {"recent": [{"run": 31, "session": "sweep", "title": "Sweep", "minutes": 4, "seconds": 252.5,
///                  "completed": true, "day": "2026-11-03", "start": "2026-11-03T21:40:00"}, …]}
///
/// `run` is null for the run in progress; `day` is null and `start` left out while the clock was not set.
public struct RecentRunsReport: Equatable, Sendable {
    public struct Run: Equatable, Sendable {
        public var run: Int64?
        public var session: String
        public var title: String
        public var minutes: Int
        /// To the tenth of a second.
        public var seconds: Double
        public var completed: Bool
        public var day: String?
        public var start: String?
    }

    public var runs: [Run]

    /// With titles from `titles` (session id → title): today's title when the session is still known, else
    /// the one it was heard under.
    public init(_ history: PracticeHistory, titles: [String: String], limit: Int = 20) {
        runs = history.recentSessions(limit: limit).map { run in
            Run(run: run.runID, session: run.sessionID, title: titles[run.sessionID] ?? run.title ?? run.sessionID,
                minutes: run.wholeMinutes, seconds: (run.listeningSeconds * 10).rounded() / 10, completed: run.completed,
                day: run.practiceDay?.description, start: run.localStart?.description)
        }
    }

    public var json: JSONValue {
        .object(["recent": .array(runs.map { run in
            var fields: [String: JSONValue] = [
                "run": run.run.map { .number(Double($0)) } ?? .null, "session": .string(run.session), "title": .string(run.title),
                "minutes": .number(Double(run.minutes)), "seconds": .number(run.seconds), "completed": .bool(run.completed),
                "day": run.day.map { .string($0) } ?? .null,
            ]
            if let start = run.start { fields["start"] = .string(start) }
            return .object(fields)
        })])
    }

    public init(json: JSONValue) {
        runs = (json["recent"]?.arrayValue ?? []).map { run in
            Run(run: run["run"]?.integerValue.map(Int64.init), session: run["session"]?.stringValue ?? "", title: run["title"]?.stringValue ?? "",
                minutes: run["minutes"]?.integerValue ?? 0, seconds: run["seconds"]?.doubleValue ?? 0, completed: run["completed"]?.boolValue ?? false,
                day: run["day"]?.stringValue, start: run["start"]?.stringValue)
        }
    }
}
