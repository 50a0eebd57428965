import ControlProtocol
import CryptoHash
import StillroomCore
import SystemCalls

/// What a person is owed of downloads: a session once on the box stays on it, and plays, with or without
/// the network, through kills, restarts and full or read-only cards, until the person removes it; then
/// its files are gone. Only the bytes the maker signed are ever kept, whatever the host sends.
struct DownloadsKept {
    /// The sessions the box has said are on it, and not removed since.
    private(set) var onTheBox: Set<String> = []
    /// Downloads the box has said were under way (queued, receiving, being checked), not on it yet, and
    /// not removed since: each goes on, across kills, cuts and restarts, until it is on the box or fails
    /// with its reason; the person's asking is never forgotten.
    private(set) var underWay: Set<String> = []
    /// Copies seen arriving, and removed by the person; downloads seen under way (the life's summary).
    private(set) var arrived = 0
    private(set) var removals = 0
    private(set) var seenUnderWay = 0

    /// Checks what the box reports against what it said before, and each copy it keeps against what
    /// the host published (`folder`: the data folder's `downloads/`).
    mutating func observe(_ report: DownloadsReport, folder: String, published: (String) -> String?) throws(Oracle.Violation) {
        let states = Dictionary(report.downloads.map { ($0.session, $0) }, uniquingKeysWith: { first, _ in first })
        for session in onTheBox.sorted() {
            guard let download = states[session] else {
                throw Oracle.Violation(invariant: "a downloaded session stays on the box", detail: "\(session) is no longer listed")
            }
            // `verifying`: a start re-reads each copy before it trusts it; it plays meanwhile.
            guard download.state == .onThisBox || download.state == .verifying else {
                throw Oracle.Violation(invariant: "a downloaded session stays on the box",
                                       detail: "\(session) is \(download.state.rawValue): \(download.summary)")
            }
        }
        for session in underWay.sorted() {
            guard let download = states[session] else {
                throw Oracle.Violation(invariant: "a download under way is never dropped", detail: "\(session) is no longer listed")
            }
            switch download.state {
            case .queued, .downloading, .verifying: continue
            case .onThisBox: underWay.remove(session)
            case .failed:
                guard let failure = download.failure, !failure.reason.isEmpty else {
                    throw Oracle.Violation(invariant: "a download that fails says why", detail: "\(session) failed: \(download.summary)")
                }
                underWay.remove(session)
            case .available, .cancelled:
                throw Oracle.Violation(invariant: "a download under way is never dropped",
                                       detail: "\(session) is \(download.state.rawValue): \(download.summary)")
            }
        }
        for download in report.downloads where [.queued, .downloading, .verifying].contains(download.state) && !onTheBox.contains(download.session) {
            if underWay.insert(download.session).inserted { seenUnderWay += 1 }
        }
        for download in report.downloads where download.state == .onThisBox {
            let path = folder + "/" + download.session + ".mp3"
            let kept = (try? Files.readAll(path, limit: 1 << 24)).map { SHA256Hasher.digest($0).hex }
            guard let kept, kept == published(download.session) else {
                throw Oracle.Violation(invariant: "only what the maker signed is kept",
                                       detail: "\(download.session) is on the box, but \(path) \(kept == nil ? "cannot be read" : "is not the published recording")")
            }
            if onTheBox.insert(download.session).inserted { arrived += 1 }
        }
    }

    /// The person removed `session` and the box said it did: nothing of it is left in `folder`.
    mutating func removed(_ session: String, folder: String) throws(Oracle.Violation) {
        if onTheBox.remove(session) != nil { removals += 1 }
        underWay.remove(session)
        let names = (try? Files.listDirectory(folder)) ?? []
        if let left = names.first(where: { $0.hasPrefix(session + ".") }) {
            throw Oracle.Violation(invariant: "a removed download leaves nothing behind", detail: "\(left) is still in the downloads folder")
        }
    }

    func mayPlay(_ session: String) -> Bool { onTheBox.contains(session) }
}
