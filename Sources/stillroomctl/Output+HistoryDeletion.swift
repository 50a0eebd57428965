import StillroomCore

/// What `history delete` prints: what was deleted, and — when the card had no room to wipe it from the
/// files yet — that it is gone from the history and will be wiped later, so the owner is neither told a
/// deletion failed that happened, nor that data is gone from the card that is still on it.
extension Output {
    static func historyDeleted(_ result: JSONValue, run: Int?) -> String {
        let count = result["deleted"]?.integerValue ?? 0
        var text = run.map { "Deleted run \($0)." } ?? "Deleted \(count) runs."
        if result["wiped"]?.boolValue == false && count > 0 {
            let (subject, possessive) = count == 1 ? ("It is", "it") : ("They are", "they")
            text += " \(subject) gone from the history; the space \(possessive) used on the card will be wiped when there is room"
                + " (after a session, or at the next start)."
        }
        return text
    }
}
