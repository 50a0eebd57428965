import StillroomCore

/// The player's state as the status carries it (the word on the wire is the raw value), shared by the
/// daemon, which says it, and the CLI, which reads it back.
public enum PlayerState: String, Equatable, Sendable {
    case idle, loading, playing, paused, ended, error
    /// The daemon is not running (the CLI read the database).
    case stopped
    /// A word this CLI does not know (a newer daemon).
    case unknown

    public init(_ phase: PlayerPhase) {
        switch phase {
        case .idle: self = .idle
        case .loading: self = .loading
        case .playing: self = .playing
        case .paused: self = .paused
        case .ended: self = .ended
        case .failed: self = .error
        }
    }
}
