/// What a session is for; the library groups sessions by it.
public enum Theme: String, Sendable, Hashable, CaseIterable {
    case breathe
    case focus
    case unwind
}
