/// A session the owner marked as a favourite (table `favorite`).
public struct FavoriteRecord: Hashable, Sendable {
    /// The catalog session id.
    public var sessionID: String
    public var createdAt: UnixMilliseconds

    public init(sessionID: String, createdAt: UnixMilliseconds) {
        self.sessionID = sessionID
        self.createdAt = createdAt
    }
}
