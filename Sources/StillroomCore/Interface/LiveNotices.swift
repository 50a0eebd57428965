/// The notices the store does not keep but that stand while a problem does: the card that cannot be
/// written, the sound output that does not answer, an update that failed, the Wi-Fi not joined, controls
/// whose device is not there. Each has a fixed negative id, so dismissing one (on the screen or with
/// `stillroomctl dismiss`) never touches a stored notice.
///
/// The rule, for all of them: a dismissal lasts until that problem goes or changes its words; then, if it
/// comes back, it is shown again. The adapters say what stands (`Standing`); this says what is shown.
public struct LiveNotices: Equatable, Sendable {
    public enum Problem: Int64, CaseIterable, Sendable {
        case storage = -1
        case output = -2
        case updateFailed = -3
        case wifi = -4
        case controls = -5

        public var id: Int64 { rawValue }
    }

    /// A problem standing now, in the words the screen shows.
    public struct Standing: Equatable, Sendable {
        public var problem: Problem
        public var kind: NoticeKind
        public var message: String

        public init(_ problem: Problem, kind: NoticeKind, message: String) {
            self.problem = problem
            self.kind = kind
            self.message = message
        }
    }

    /// The words each dismissed problem had when it was dismissed.
    private var dismissed: [Problem: String] = [:]

    public init() {}

    /// What to show of `standing` (in its order), forgetting a dismissal whose problem went or changed.
    public mutating func shown(_ standing: [Standing]) -> [InterfaceModel.Notice] {
        follow(standing)
        return standing.filter { dismissed[$0.problem] != $0.message }
            .map { InterfaceModel.Notice(id: $0.problem.id, kind: $0.kind, message: $0.message) }
    }

    /// Dismisses the live notice `id` while its problem stands as it is; false when `id` is none of
    /// those shown now (a stored notice, or a problem already gone).
    public mutating func dismiss(_ id: Int64, standing: [Standing]) -> Bool {
        follow(standing)
        guard let shown = standing.first(where: { $0.problem.id == id }), dismissed[shown.problem] != shown.message else { return false }
        dismissed[shown.problem] = shown.message
        return true
    }

    private mutating func follow(_ standing: [Standing]) {
        for (problem, message) in dismissed where standing.first(where: { $0.problem == problem })?.message != message {
            dismissed[problem] = nil
        }
    }
}
