import StillroomCore

/// The `history delete` answer: how many runs went, whether they are already wiped from the database's
/// files (else when the card has room: after a session, or at the next start), and the damaged copies of
/// the database set aside earlier that went with them (deleting all only).
///
///     {"deleted": 3, "wiped": true, "removedCopies": ["/var/lib/stillroom/stillroom.db.damaged-…"]}
public struct HistoryDeletionReport: Equatable, Sendable {
    public var deleted: Int
    public var wiped: Bool
    public var removedCopies: [String]

    public init(deleted: Int, wiped: Bool, removedCopies: [String]) {
        self.deleted = deleted
        self.wiped = wiped
        self.removedCopies = removedCopies
    }

    public var json: JSONValue {
        .object(["deleted": .number(Double(deleted)), "wiped": .bool(wiped), "removedCopies": .array(removedCopies.map { .string($0) })])
    }

    /// A missing `wiped` reads as wiped: nothing is said to be waiting that was not said to be.
    public init(json: JSONValue) {
        deleted = json["deleted"]?.integerValue ?? 0
        wiped = json["wiped"]?.boolValue ?? true
        removedCopies = json["removedCopies"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
