/// The library as loaded: the sessions and sounds that passed validation, in file order.
///
/// A catalog is never "half valid": entries that failed validation are simply absent (and reported
/// as `ContentProblem`s beside it), so everything here can be shown and played.
public struct Catalog: Sendable, Hashable {
    /// The schema version this firmware reads.
    public static let supportedSchema = 1

    /// The bundled session PLAY starts on first boot, when the catalog names a valid one.
    public var defaultSessionID: ContentID?
    /// In file order, which is the order the library shows.
    public var sessions: [Session]
    public var sounds: [Sound]

    public init(defaultSessionID: ContentID? = nil, sessions: [Session] = [], sounds: [Sound] = []) {
        self.defaultSessionID = defaultSessionID
        self.sessions = sessions
        self.sounds = sounds
    }

    /// No sessions, no sounds: what a catalog that cannot be read at all loads as.
    public static let empty = Catalog()

    /// The loaded session with this id (a linear search: catalogs hold tens of sessions).
    public func session(withID id: ContentID) -> Session? {
        sessions.first { $0.id == id }
    }

    /// The loaded sound with this id.
    public func sound(withID id: ContentID) -> Sound? {
        sounds.first { $0.id == id }
    }

    /// What PLAY starts on a box with no history: the default session, or else the first bundled
    /// breathing session, or else the first bundled session, so a broken `defaultSession` field never
    /// leaves first boot silent.
    public var firstBootSession: Session? {
        if let defaultSessionID, let session = session(withID: defaultSessionID), session.audio.isBundled {
            return session
        }
        let bundled = sessions.filter(\.audio.isBundled)
        return bundled.first { $0.theme == .breathe } ?? bundled.first
    }
}
