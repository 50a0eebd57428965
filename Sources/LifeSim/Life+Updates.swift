import ControlProtocol
import StillroomCore

/// System updates in a box's life: the person asks for one now and then (sometimes while a session
/// plays), the world's agent carries it out as the outcome drawn for it says, and `UpdatePromises` judges.
extension Life {
    /// Where the person's bundle lies (a stick; the agent in this world does not read it).
    static let bundleSource = "/run/stillroom-test-stick/stillroom-next.raucb"

    func askForUpdate(_ outcome: UpdateAgent.Outcome) throws(Oracle.Violation) {
        guard let status = box.status() else { return }
        let playing = status.state == .playing || status.state == .loading
        box.updates.nextOutcome = outcome
        let answer = box.request(.update(.install(source: Self.bundleSource, confirmed: true)))
        var refusal = ""
        if case .failure(let error) = answer { refusal = "\(error)" }
        if verbose { say("  \(refusal.isEmpty ? "accepted" : "refused: \(refusal)")") }
        let accepted = refusal.isEmpty
        try updatePromises.asked(playing: playing, accepted: accepted, refusal: refusal)
        try updateAgentActs()
    }

    /// The agent takes what the daemon asked of it and writes what is due, the daemon reads it, and so on
    /// until both are quiet; then the reboot, if it is due.
    func updateAgentActs() throws(Oracle.Violation) {
        guard box.running else { return }
        for _ in 0..<100 {
            guard box.updates.act(now: lifeNow) else { break }
            box.settle()
        }
        let said = box.updates.takeSaid() // taken in every life: it would grow otherwise
        if verbose { for line in said { say("  \(lifeNow) \(line)") } }
        if let at = box.updates.rebootAt, at <= lifeNow {
            rebootingIntoUpdate = true
            defer { rebootingIntoUpdate = false }
            try world(.restart)
        }
    }

    /// The daemon's update state, as `stillroomctl update status` has it.
    func updateState() -> String {
        guard case .success(.update(let json)) = box.request(.update(.status)),
              case .object(let top) = json, case .object(let update)? = top["update"],
              case .string(let state)? = update["state"] else { return "unknown" }
        return state
    }

    static func isBusy(_ state: String) -> Bool { state == "installing" || state == "restarting" }

    /// An update is asked for, written, or its screen stands: the reminder's outcome then is not judged.
    var updateUnderWay: Bool { box.updates.writing || box.updates.rebootAt != nil || updatePromises.busy }

    func checkUpdate(_ status: StatusReport) throws(Oracle.Violation) {
        guard box.updates.installsAsked > 0 else { return } // no update yet in this life: nothing to ask
        let state = updateState()
        if verbose && state != updatePromises.state { say("  \(lifeNow) the daemon's update: \(state)") }
        try updatePromises.check(status, updateState: state, agent: box.updates, now: lifeNow,
                                 cardTrouble: oracle.cardTroubleThisLife || oracle.cardUnwritable)
    }
}
