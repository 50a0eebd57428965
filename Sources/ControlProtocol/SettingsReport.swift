import StillroomCore

/// The `settings` answer: every setting with its value and what it does, in the order of `Settings.keys`;
/// built by the daemon and by the CLI from the database when the daemon is down.
///
///     {"settings": [{"key": "volume", "value": "60", "about": "…"}, …]}
public struct SettingsReport: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var key: String
        public var value: String
        public var about: String
    }

    public var entries: [Entry]

    public init(_ settings: Settings) {
        entries = Settings.keys.map { Entry(key: $0, value: settings.value(of: $0), about: Settings.explanations[$0] ?? "") }
    }

    public var json: JSONValue {
        .object(["settings": .array(entries.map { .object(["key": .string($0.key), "value": .string($0.value), "about": .string($0.about)]) })])
    }

    /// Reads an answer back; entries that are not settings are left out.
    public init(json: JSONValue) {
        entries = (json["settings"]?.arrayValue ?? []).compactMap { entry in
            guard let key = entry["key"]?.stringValue, let value = entry["value"]?.stringValue else { return nil }
            return Entry(key: key, value: value, about: entry["about"]?.stringValue ?? "")
        }
    }
}
