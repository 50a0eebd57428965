import ControlProtocol
import StillroomCore

/// What a person is owed around a system update (docs/updates.md, "Installing from the CLI"), written here
/// as promises, not read from the product: an update starts only while nothing plays, and nothing plays
/// while the new version is written; an agent that stops answering is given up (the box takes PLAY again)
/// and the box says why an update failed; a version that did not start well is told, and not again once
/// the person has dismissed it.
struct UpdatePromises {
    /// An agent silent this long after its last word (or after the daemon's start, which cannot know how long
    /// it had been silent before) leaves the box stuck behind the update's screen: three minutes for a
    /// request never taken (systemd starts the agent on the request at once), an hour for an install (RAUC
    /// writes a slot in minutes; the agent's own unit is stopped at 45).
    static let untakenRequestLimit: Int64 = 180
    static let silentInstallLimit: Int64 = 3600

    /// The daemon's update state at the last look: idle, installing, restarting or failed.
    private(set) var state = "idle"
    /// This life of the daemon was seen busy with an update: its failure, from then on, is owed a notice.
    private var busySeenThisLife = false
    /// When this life of the daemon started (life seconds).
    private var lifeStartedAt: Int64 = 0
    /// The box is back from a trial boot that failed: the notice is owed at the first look.
    var rollbackOwed = false
    /// The rollback (its result, as the slots say it) whose notice the person dismissed on a card that kept
    /// the dismissal: never shown again.
    var rollbackDismissed: String?
    private(set) var refusedWhilePlaying = 0
    private(set) var failuresSaid = 0

    /// The update's screen stands: PLAY waits.
    var busy: Bool { state == "installing" || state == "restarting" }

    mutating func lifeStarted(at now: Int64) {
        busySeenThisLife = false
        state = "idle"
        lifeStartedAt = now
    }

    /// The person asked for an update: refused while something played, taken otherwise (unless one was
    /// already under way).
    mutating func asked(playing: Bool, accepted: Bool, refusal: String) throws(Oracle.Violation) {
        if playing && accepted {
            throw Oracle.Violation(invariant: "an update starts only while nothing plays", detail: "taken while a session played")
        }
        if playing { refusedWhilePlaying += 1 }
        if !playing && !accepted && !busy {
            throw Oracle.Violation(invariant: "an update asked for while nothing plays starts", detail: "refused: \(refusal)")
        }
    }

    /// After every step: the status, and the daemon's update state (`update status`).
    mutating func check(_ status: StatusReport, updateState: String, agent: UpdateAgent, now: Int64,
                        cardTrouble: Bool) throws(Oracle.Violation) {
        if agent.writing && (status.state == .playing || status.state == .loading) {
            throw Oracle.Violation(invariant: "nothing plays while an update is written",
                                   detail: "\(status.state.rawValue) \(status.session ?? "") while the agent writes the other slot")
        }
        state = updateState
        if busy {
            busySeenThisLife = true
            if let since = agent.silentSince {
                let limit = agent.lastOutcome == .unanswered ? Self.untakenRequestLimit : Self.silentInstallLimit
                let silent = now - max(since, lifeStartedAt)
                if silent > limit {
                    throw Oracle.Violation(invariant: "an update whose agent stops answering is given up",
                                           detail: "still \(state) \(silent) s after the agent's last word (\(agent.lastOutcome?.rawValue ?? "-"))")
                }
            }
        } else if state == "failed" && busySeenThisLife {
            busySeenThisLife = false
            failuresSaid += 1
            if !status.notices.contains(where: { $0.kind == .updateFailed }) {
                throw Oracle.Violation(invariant: "a failed update says why", detail: "the update failed and no notice stands")
            }
        }
        let rollbackShown = status.notices.contains { $0.kind == .updateRolledBack }
        if rollbackOwed {
            rollbackOwed = false
            if !rollbackShown && !cardTrouble {
                throw Oracle.Violation(invariant: "a version that did not start well is told",
                                       detail: "the box went back (\(agent.rolledBackResult ?? "")) and no notice says so")
            }
        }
        if rollbackShown, let dismissed = rollbackDismissed, dismissed == agent.rolledBackResult {
            throw Oracle.Violation(invariant: "a version that did not start well is told once",
                                   detail: "its notice stands again after the person dismissed it")
        }
    }
}
