import Glibc
import StillroomCore
import SystemCalls

/// The box's update agent and boot selection, as the box's world has them: root's, outside the daemon
/// (board/rauc/stillroom-update-agent and stillroom-boot-select; their own tests and the QEMU twin run the
/// real ones). Like the real agent it takes the daemon's request from the daemon's runtime folder and
/// answers in its own (`progress` and `status`, key=value files replaced whole); it writes the other slot
/// over minutes of the box's time, and reboots into it when the daemon asks. What becomes of an install is
/// the world's (`Outcome`).
///
/// Both folders are in /run: a reboot empties them (the boot selection writes `status` again at each boot);
/// a kill or a restart of the daemon alone leaves them, and the agent, as they were.
final class UpdateAgent {
    enum Outcome: String, CaseIterable {
        /// Written, rebooted into, and its trial boot passes: committed.
        case committed
        /// Written and rebooted into, but the new version's daemon never becomes ready: the box goes back.
        case rolledBack = "rolled-back"
        /// RAUC refuses the bundle at its check (another key, an older version).
        case refused
        /// The agent never takes the request (its path unit masked, broken).
        case unanswered
        /// The agent reports, then falls silent partway through (hung, killed without its finish step).
        case silentMidway = "silent-midway"
    }

    /// The reports' folder (/run/stillroom-update) and the daemon's request (/run/stillroom/update-request).
    let folder: String
    let requestPath: String
    var progressPath: String { folder + "/progress" }
    var statusPath: String { folder + "/status" }

    // The slots, as the boot selection keeps them (on the boot partition: through every reboot).
    private(set) var booted = "A"
    private var versions = ["A": "1.0", "B": ""]
    private var pending: String?
    private var bad: Set<String> = []
    private var lastResult = ""
    private var versionsMade = 1
    private var other: String { booted == "A" ? "B" : "A" }

    /// What the world makes of the install the daemon asks for next.
    var nextOutcome: Outcome = .committed
    /// The install the agent is carrying out: what becomes of it, the reports still to write (at life
    /// seconds), and whether the other slot is being written now.
    private struct Install {
        var outcome: Outcome
        var source: String
        var version: String
        var reports: [(at: Int64, report: Report)]
    }

    private enum Report {
        case installing(percent: Int, step: String)
        /// The slot is written and pending.
        case installed
        case failed(String)
        /// Nothing more: the agent hangs here.
        case silence
    }

    private var install: Install?
    /// The other slot is being written (from the agent's first report to its last).
    private(set) var writing = false
    /// The request the agent does not take, while it lies there (an unanswered outcome).
    private var ignoredRequest = false
    /// The daemon asked for the restart into the written slot: the reboot comes at this life second.
    private(set) var rebootAt: Int64?
    /// Its trial boot: the outcome of the install rebooted into.
    private var trial: Outcome?
    /// The agent's last word (a report written, or the request it left untaken), for the oracle: from then,
    /// a box whose agent says nothing more must give up on it. Nil while it has more to say.
    private(set) var silentSince: Int64?
    /// The install's outcome from the agent's last word on (what the oracle owes: a failure said, a reboot).
    private(set) var lastOutcome: Outcome?
    private var random = SplitMix64(seed: 47)
    private(set) var installsAsked = 0
    private(set) var rollbacks = 0
    private(set) var commits = 0

    init(folder: String, requestPath: String) {
        self.folder = folder
        self.requestPath = requestPath
        let requestFolder = requestPath[..<(requestPath.lastIndex(of: "/") ?? requestPath.startIndex)]
        Shell.run("mkdir -p '\(folder)' '\(requestFolder)'")
        publishStatus()
    }

    private func between(_ low: Int64, _ high: Int64) -> Int64 { low + Int64(random.next() % UInt64(high - low + 1)) }

    /// When the agent next has something to do on its own (a report due, the reboot), in life seconds.
    var nextActionAt: Int64? {
        [install?.reports.first?.at, rebootAt].compactMap { $0 }.min()
    }

    /// Takes a request lying in the daemon's folder, and writes the reports due by `now`. Returns whether it
    /// did anything (the daemon then has files to read: the caller lets it run, and asks again).
    func act(now: Int64) -> Bool {
        var acted = false
        if let text = takeRequest(now: now) {
            acted = true
            take(text, now: now)
        }
        while var current = install, let first = current.reports.first, first.at <= now {
            current.reports.removeFirst()
            install = current
            acted = true
            write(first.report, of: current, now: now)
        }
        return acted
    }

    /// The request's text, taken and removed as the agent does; nil when there is none, or the agent does
    /// not take it.
    private func takeRequest(now: Int64) -> String? {
        guard let bytes = try? Files.readAll(requestPath, limit: 4096) else {
            ignoredRequest = false // taken back by the daemon (or never written)
            return nil
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("action=install") && (ignoredRequest || nextOutcome == .unanswered) {
            if !ignoredRequest {
                ignoredRequest = true
                installsAsked += 1
                lastOutcome = .unanswered
                silentSince = now // it says nothing from the request on
            }
            return nil
        }
        unlink(requestPath)
        return text
    }

    private func take(_ text: String, now: Int64) {
        let fields = UpdateReportText.fields(text)
        switch fields["action"] {
        case "install":
            installsAsked += 1
            let outcome = nextOutcome
            versionsMade += 1
            let version = "1.\(versionsMade)"
            var at = now + between(1, 15)
            var reports: [(at: Int64, report: Report)] = [(at, .installing(percent: 0, step: "Starting"))]
            at += between(5, 40); reports.append((at, .installing(percent: 10, step: "Checking bundle")))
            if outcome == .refused {
                at += between(5, 30); reports.append((at, .failed("signature verification failed: certificate not trusted")))
            } else {
                at += between(20, 90); reports.append((at, .installing(percent: 40, step: "Copying image to rootfs.\(other == "A" ? 0 : 1)")))
                if outcome == .silentMidway {
                    reports.append((at + 1, .silence))
                } else {
                    at += between(30, 240); reports.append((at, .installing(percent: 80, step: "Copying image to rootfs.\(other == "A" ? 0 : 1)")))
                    at += between(10, 120); reports.append((at, .installed))
                }
            }
            install = Install(outcome: outcome, source: fields["source"] ?? "", version: version, reports: reports)
            lastOutcome = outcome
            silentSince = nil
        case "restart":
            // The agent's restart: the boot selection's one-shot into the pending slot, then the reboot.
            guard pending != nil else {
                report(state: "failed", message: "nothing is installed to restart into")
                silentSince = now
                return
            }
            report(state: "restarting", percent: 100, version: versions[other] ?? "")
            rebootAt = now + between(3, 10)
            silentSince = nil
        default:
            break
        }
    }

    private func write(_ report: Report, of current: Install, now: Int64) {
        switch report {
        case .installing(let percent, let step):
            writing = true
            self.report(state: "installing", percent: percent, step: step, source: current.source)
        case .installed:
            writing = false
            pending = other
            versions[other] = current.version
            bad.remove(other)
            trial = current.outcome
            publishStatus()
            self.report(state: "installed", percent: 100, step: "Installing done.", source: current.source, version: current.version)
            install = nil
            silentSince = now // the daemon asks for the restart at once; if it does not, it says so
        case .failed(let message):
            writing = false
            self.report(state: "failed", source: current.source, message: message)
            install = nil
            silentSince = now
        case .silence:
            writing = false // hung: nothing more is written
            install = nil
            silentSince = now
        }
    }

    /// The box reboots. Into the pending slot when the daemon asked (its trial boot passes, or the box goes
    /// back); otherwise (a power cut, a reboot of the world's) what was being written is lost and the boot
    /// stays where it was. /run is emptied; the boot selection publishes the slots again.
    /// Returns whether this was the update's own reboot, and how much longer it took (a failed trial boots twice).
    func boot() -> (updateReboot: Bool, extraSeconds: Int64) {
        defer {
            Shell.run("rm -f '\(progressPath)' '\(requestPath)' '\(requestPath).new'")
            ignoredRequest = false
            silentSince = nil
            publishStatus()
        }
        if writing || install != nil {
            bad.insert(other) // RAUC marks the slot it was writing; nothing pending
            install = nil
            writing = false
        }
        guard rebootAt != nil, let target = pending, let outcome = trial else {
            rebootAt = nil
            return (false, 0)
        }
        rebootAt = nil
        trial = nil
        pending = nil
        said.append("agent: reboot into slot \(target), \(outcome.rawValue)")
        let version = versions[target] ?? ""
        if outcome == .rolledBack {
            bad.insert(target)
            rollbacks += 1
            lastResult = "update failed: \(version) (slot \(target)) did not pass its check (stillroomd failed 7 times in a row; "
                + "its journal says why); back to slot \(booted)"
            return (true, 180)
        }
        booted = target
        commits += 1
        lastResult = "updated: running \(version) (slot \(target))"
        return (true, 0)
    }

    /// The last result as the daemon's rollback notice quotes it (nil when the last update was not given up).
    var rolledBackResult: String? { lastResult.hasPrefix("update failed") ? lastResult : nil }

    /// What the agent did since the last call (a replay prints it).
    private(set) var said: [String] = []
    func takeSaid() -> [String] { defer { said = [] }; return said }

    private func report(state: String, percent: Int = 0, step: String = "", source: String = "", version: String = "", message: String = "") {
        said.append(["agent:", state, "\(percent) %", step, version, message].filter { !$0.isEmpty }.joined(separator: " "))
        let text = "state=\(state)\npercent=\(percent)\nstep=\(step)\nsource=\(source)\nversion=\(version)\nmessage=\(message)\n"
        replace(progressPath, with: text)
    }

    private func publishStatus() {
        let text = "booted=\(booted)\nbooted_version=\(versions[booted] ?? "")\ncommitted=\(booted)\npending=\(pending ?? "")\n"
            + "pending_version=\(pending.flatMap { versions[$0] } ?? "")\nother_version=\(versions[other] ?? "")\n"
            + "bad=\(bad.sorted().joined(separator: " "))\nlast_result=\(lastResult)\n"
        replace(statusPath, with: text)
    }

    /// Written beside and renamed, as the agent does: the daemon's watcher sees the rename.
    private func replace(_ path: String, with text: String) {
        do throws(SystemError) {
            try Files.replaceAtomically(path, with: Array(text.utf8), temporary: path + ".new", mode: 0o644, flags: O_NOFOLLOW)
        } catch {
            preconditionFailure("lifesim: the update agent could not write \(path): \(error)")
        }
    }
}
