/// The keys the box checks lists of sessions with, and where they were read from (for messages).
public struct ContentKeySet: Sendable, Hashable {
    public var keys: [ContentKey]
    /// The folder (or other origin) named when no key verifies a list.
    public var source: String

    public init(keys: [ContentKey], source: String) {
        self.keys = keys
        self.source = source
    }

    /// No keys: every list is refused.
    public static let none = ContentKeySet(keys: [], source: "no key folder")
}
