import ControlProtocol
import StillroomCore

/// What `history delete` prints: what was deleted; when the card had no room to wipe it from the files yet,
/// that it is gone from the history and will be wiped later (so the owner is neither told a deletion failed
/// that happened, nor that data is gone from the card that is still on it); and the damaged copies of the
/// database removed with it.
extension Output {
    static func historyDeleted(_ result: JSONValue, run: Int?) -> String {
        let report = HistoryDeletionReport(json: result)
        let count = report.deleted
        var text = run.map { "Deleted run \($0)." } ?? "Deleted \(Wording.count(count, "run"))."
        if !report.wiped && count > 0 {
            let (subject, possessive) = count == 1 ? ("It is", "it") : ("They are", "they")
            text += " \(subject) gone from the history; the space \(possessive) used on the card will be wiped when there is room"
                + " (after a session, or at the next start)."
        }
        let copies = report.removedCopies
        if !copies.isEmpty {
            text += " Removed \(copies.count) damaged \(copies.count == 1 ? "copy" : "copies") of the database set aside earlier,"
                + " with the older history \(copies.count == 1 ? "it" : "they") held: "
                + copies.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", ") + "."
        }
        return text
    }
}
