/// The box's side of a system update: whether one may start, what the screen shows while it installs,
/// and when to restart into it. Pure: the daemon hands it the owner's requests and the agent's reports,
/// and performs what it returns (docs/updates.md, "Installing from the CLI").
///
/// The rules: an update starts only while nothing plays (refused otherwise, with what to do: the owner at a
/// terminal can stop the box or wait, and a bedside listener is never cut off); one at a time; the daemon
/// alone decides the restart, which it asks for as soon as the slot is written (nothing can have started
/// meanwhile: PLAY waits while the update screen stands).
public struct SystemUpdate: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case idle
        case installing(percent: Int, step: String)
        /// Written; the box is restarting into `version`.
        case restarting(version: String)
        /// The last attempt (in this boot) failed; nothing was switched.
        case failed(message: String)
    }

    public enum Effect: Equatable, Sendable {
        /// Ask the agent to install from `source`.
        case requestInstall(UpdateSource)
        /// Ask the agent to reboot once into the written slot.
        case requestRestart
        /// Say on the screen that the update failed and why.
        case announceFailure(String)
    }

    public private(set) var phase: Phase = .idle
    public private(set) var source: String = ""

    public init() {}

    /// RAUC's step ("Copying image to rootfs.1") in the box's words, for the screen and the CLI.
    public static func stepInWords(_ step: String) -> String {
        let lowered = step.lowercased()
        if lowered.contains("copying") || lowered.contains("updating slots") { return "Writing the new version" }
        if lowered.contains("check") || lowered.contains("verif") || lowered.contains("determining") { return "Checking the update" }
        if lowered.contains("done") { return "Written" }
        return "Preparing"
    }

    /// Whether the update's full-screen notice stands (the box takes no PLAY meanwhile).
    public var isBusy: Bool {
        switch phase {
        case .installing, .restarting: true
        case .idle, .failed: false
        }
    }

    /// The owner asks for an update from `source`.
    public mutating func install(_ source: UpdateSource, playing: Bool) -> Result<[Effect], UpdateRefusal> {
        switch phase {
        case .installing(let percent, _):
            return .failure(UpdateRefusal("an update is already installing (\(percent) %); see stillroomctl update status"))
        case .restarting(let version):
            return .failure(UpdateRefusal("the box is restarting into \(version.isEmpty ? "an update" : version)"))
        case .idle, .failed:
            break
        }
        guard !playing else {
            return .failure(UpdateRefusal("the box is playing: an update installs only when nothing plays. "
                                          + "Stop it (stillroomctl stop) or wait for the session to end, then try again"))
        }
        phase = .installing(percent: 0, step: "Starting")
        self.source = source.description
        return .success([.requestInstall(source)])
    }

    /// The agent's progress file changed. `seenBefore` is true for the file as found at the daemon's start:
    /// an install running or finished while the daemon was away is taken up (a finished one restarts the
    /// box), but an old failure is not announced again.
    public mutating func agentReported(_ report: UpdateProgress, seenBefore: Bool = false) -> [Effect] {
        switch report.state {
        case .installing:
            if case .restarting = phase { return [] }
            phase = .installing(percent: report.percent, step: report.step)
            source = report.source
            return []
        case .installed:
            if case .restarting = phase { return [] }
            phase = .restarting(version: report.version)
            source = report.source
            return [.requestRestart]
        case .restarting:
            phase = .restarting(version: report.version)
            return []
        case .failed:
            let wasWatching = isBusy
            phase = .failed(message: report.message)
            source = report.source
            return wasWatching && !seenBefore ? [.announceFailure(report.message)] : []
        }
    }
}
