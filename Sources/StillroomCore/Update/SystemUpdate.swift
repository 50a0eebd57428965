/// The box's side of a system update: whether one may start, what the screen shows while it installs,
/// and when to restart into it. Pure: the daemon hands it the owner's requests and the agent's reports,
/// and performs what it returns (docs/updates.md, "Installing from the CLI").
///
/// The rules: an update starts only while nothing plays (refused otherwise, with what to do: the owner at a
/// terminal can stop the box or wait, and a bedside listener is never cut off); one at a time; the daemon
/// alone decides the restart, which it asks for as soon as the slot is written (nothing can have started
/// meanwhile: PLAY waits while the update screen stands). The agent gets a limit to answer in: a box whose
/// agent never answers (masked, broken, its folder's watcher gone) gives up, says so and takes PLAY again,
/// instead of standing at "0 % Preparing" until someone restarts it.
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
        /// Take back the request the agent never took (so it cannot act on it late).
        case withdrawRequest
    }

    /// How long the agent may take to take up a request: systemd starts it on the request's path at once,
    /// and its first report ("Starting") comes before anything else.
    public static let answerLimit: Duration = .seconds(120)
    /// How long an install may go without a report: longer than the agent's own unit may run
    /// (TimeoutStartSec=45min, after which its finish step reports the failure).
    public static let installSilenceLimit: Duration = .seconds(50 * 60)
    /// How long "restarting" may stand before the box is taken to have stayed where it was.
    public static let restartLimit: Duration = .seconds(5 * 60)

    public private(set) var phase: Phase = .idle
    public private(set) var source: String = ""
    /// A request is written that the agent has not answered yet.
    public private(set) var awaitingAnswer = false

    public init() {}

    /// How long from now the agent may stay silent before the box gives up on it (`agentSilent`); nil
    /// while nothing is asked of it. Re-armed after every request and every report.
    public var silenceLimit: Duration? {
        switch phase {
        case .installing: awaitingAnswer ? Self.answerLimit : Self.installSilenceLimit
        case .restarting: awaitingAnswer ? Self.answerLimit : Self.restartLimit
        case .idle, .failed: nil
        }
    }

    /// The agent said nothing for `silenceLimit`: the update failed, PLAY is taken again, and the screen
    /// and `update status` say why.
    public mutating func agentSilent() -> [Effect] {
        let message: String
        switch phase {
        case .installing where awaitingAnswer:
            message = "the update agent did not take the request within \(Self.minutes(Self.answerLimit)); nothing was installed "
                + "(on the box: systemctl status stillroom-update.path)"
        case .installing:
            message = "the update agent reported nothing for \(Self.minutes(Self.installSilenceLimit)); nothing was switched"
        case .restarting(let version):
            let what = version.isEmpty ? "the new version" : version
            message = "the box was not restarted into \(what) within \(Self.minutes(awaitingAnswer ? Self.answerLimit : Self.restartLimit)); "
                + "it runs on as before"
        case .idle, .failed:
            return []
        }
        awaitingAnswer = false
        phase = .failed(message: message)
        return [.withdrawRequest, .announceFailure(message)]
    }

    /// At the daemon's start, a request of its own still lies in the folder: the agent never took it (it
    /// takes and removes a request at once). Taken back, and told by `update status`, not on the screen.
    public mutating func leftRequestFound() -> [Effect] {
        awaitingAnswer = false
        phase = .failed(message: "an update asked for before stillroomd restarted was never taken up by the update agent; "
                        + "nothing was installed")
        return [.withdrawRequest]
    }

    private static func minutes(_ duration: Duration) -> String {
        let minutes = duration.components.seconds / 60
        return minutes == 1 ? "a minute" : "\(minutes) minutes"
    }

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
        awaitingAnswer = true
        return .success([.requestInstall(source)])
    }

    /// The agent's progress file changed. `seenBefore` is true for the file as found at the daemon's start:
    /// an install running or finished while the daemon was away is taken up (a finished one restarts the
    /// box), but an old failure is not announced again.
    /// A report the restart asked for does not answer (the file read again, a late "installing") leaves
    /// the wait for the agent's answer as it was.
    public mutating func agentReported(_ report: UpdateProgress, seenBefore: Bool = false) -> [Effect] {
        if case .restarting = phase, report.state == .installing || report.state == .installed { return [] }
        awaitingAnswer = false
        switch report.state {
        case .installing:
            phase = .installing(percent: report.percent, step: report.step)
            source = report.source
            return []
        case .installed:
            phase = .restarting(version: report.version)
            source = report.source
            awaitingAnswer = true
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
