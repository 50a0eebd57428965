import ControlProtocol
import StillroomCore

/// "No notice is said twice": a notice is announced at most once while it stands, in one life of the
/// daemon (a start says again what stands then: a new life, a new telling). The ear hears what the box says
/// (the daemon's spoken listener) and sees the notices the status lists after each step; it knows a notice
/// by its kind's heading, as the voice says it ("Notice: The memory card is full."). What the person asks
/// to hear is not counted: a notice's label as the knob reaches it ("… Press the knob to read it.").
struct NoticeEar {
    /// Each kind standing at the last look: the notices of it seen since it began to stand, and how many
    /// times its announcement was said meanwhile.
    private var standing: [NoticeKind: (ids: Set<Int64>, said: Int)] = [:]
    /// Announcements heard in the whole life of the box.
    private(set) var announcements = 0

    /// After a step: `spoken` is what the box said during it, `notices` what stands at its end. A kind
    /// said more often than there were notices of it while it stood is a notice said twice.
    mutating func heard(_ spoken: [String], standingNow notices: [StatusReport.Notice]) throws(Oracle.Violation) {
        for notice in notices { standing[notice.kind, default: ([], 0)].ids.insert(notice.id) }
        for text in spoken {
            for kind in Array(standing.keys) {
                let times = Self.announcements(of: kind, in: text)
                guard times > 0 else { continue }
                announcements += times
                standing[kind]!.said += times
                let (ids, said) = standing[kind]!
                if said > ids.count {
                    throw Oracle.Violation(invariant: "no notice is said twice",
                                           detail: "\"\(InterfaceText.noticeHeading(kind))\" said \(said) times while \(ids.count) of it stood: \(text)")
                }
            }
        }
        let standingKinds = Set(notices.map(\.kind))
        standing = standing.filter { standingKinds.contains($0.key) }
    }

    /// The daemon stopped: its next life may say again what stands at its start.
    mutating func lifeEnded() { standing = [:] }

    /// How many times `text` announces a notice of `kind`: its heading as a sentence of its own, at the
    /// start or after another sentence. Left out: its label as the knob reaches it ("… Press the knob to
    /// read it.") and the key describer naming it ("…; now on Notice: …"), both the person asking.
    static func announcements(of kind: NoticeKind, in text: String) -> Int {
        let heading = "Notice: " + InterfaceText.noticeHeading(kind) + "."
        var count = 0
        var searchFrom = text.startIndex
        while let found = text[searchFrom...].firstRange(of: heading) {
            let before = text[..<found.lowerBound]
            let startsASentence = before.isEmpty || before.hasSuffix(". ") || before.hasSuffix("? ") || before.hasSuffix("! ")
            if startsASentence && !text[found.upperBound...].hasPrefix(" Press the knob to read it.") { count += 1 }
            searchFrom = found.upperBound
        }
        return count
    }
}
