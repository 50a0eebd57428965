/// The ledger kept in step with the player, after each of the player's events: a checkpoint also writes
/// the run it updates (in the same transaction, `ProgressSave`), leaving a session closes its run, and a
/// pause long enough closes it too. One rule, here, rather than in the daemon's wiring.
extension PracticeLedger {
    /// What the long-pause timer should do.
    public enum PauseTimer: Equatable, Sendable {
        /// Cancel it: playing, loading or stopped, no pause is running out.
        case cancel
        /// Arm it for `PracticeLedger.pauseClosesRunAfter` unless it is already running: the pause goes on.
        case armUnlessArmed
        /// Leave it as it is (paused with no run open).
        case leave
    }

    /// What following the player asks for.
    public struct Following: Equatable, Sendable {
        /// Run saves, to keep in the same transaction as the player's checkpoint.
        public var saves: [Effect]
        /// A session was left (stopped, ended, failed) with a run open: a quiet moment.
        public var sessionLeft: Bool
        public var pauseTimer: PauseTimer
    }

    /// Follows the player into `phase` (playing `sessionID`); `checkpointed` when this event saved a place.
    public mutating func follow(_ phase: PlayerPhase, sessionID: String?, checkpointed: Bool,
                                wall: UnixMilliseconds) -> Following {
        switch phase {
        case .playing:
            return Following(saves: checkpointed ? checkpoint(wall: wall) : [], sessionLeft: false, pauseTimer: .cancel)
        case .paused:
            let saves = checkpointed ? checkpoint(wall: wall) : []
            return Following(saves: saves, sessionLeft: false, pauseTimer: open != nil ? .armUnlessArmed : .leave)
        case .loading:
            // Another session loading closes the run of the one left; the same one reloading keeps it.
            let saves = open.map { $0.record.sessionID != sessionID } == true ? close(wall: wall) : []
            return Following(saves: saves, sessionLeft: false, pauseTimer: .cancel)
        case .idle, .ended, .failed:
            guard open != nil else { return Following(saves: [], sessionLeft: false, pauseTimer: .cancel) }
            return Following(saves: close(wall: wall), sessionLeft: true, pauseTimer: .cancel)
        }
    }
}
