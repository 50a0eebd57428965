import ControlProtocol
import ControlSocket
import EventLoop
import Glibc
import StillroomCore
import SystemCalls

/// System updates, seen from the daemon: requests to the update agent (root, board/rauc/stillroom-update-agent)
/// written into the update folder, its reports read back when inotify says they changed, the full-screen
/// notice while it installs, the restart decided here (docs/updates.md, "Installing from the CLI").
struct UpdateSide {
    var machine = SystemUpdate()
    var watcher: DirectoryWatcher?
    /// Armed for the machine's `silenceLimit` after every request and report.
    var silenceTimer: LoopTimer?
    /// Why the last install failed, while its notice stands (this boot only: nothing was switched).
    var failureNotice: String?
}

extension Daemon {
    var updatesAvailable: Bool { updates.watcher != nil }

    /// Watches the agent's folder when the box has one (the appliance image); takes up an install that was
    /// running, or finished, while the daemon was away, and the slots' status (a rollback's notice).
    func startUpdates() {
        let folder = options.updateDirectory
        var info = stat()
        guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            logger.debug("updates: no folder \(folder); system updates are not available here")
            return
        }
        do {
            updates.watcher = try DirectoryWatcher(loop: loop, path: folder) { [unowned self] names in
                if names.contains("progress") { readUpdateProgress(seenBefore: false) }
                if names.contains("status") { noticeRollback() }
            }
        } catch {
            logger.error("updates: cannot watch \(folder): \(error); system updates are not available")
            return
        }
        updates.silenceTimer = loop.makeTimer { [unowned self] in
            logger.warning("updates: the agent said nothing in time")
            performUpdate(updates.machine.agentSilent())
        }
        var request = stat()
        if lstat(options.updateRequestPath, &request) == 0 {
            logger.warning("updates: a request from before this start was never taken up by the agent; taken back")
            performUpdate(updates.machine.leftRequestFound())
        }
        readUpdateProgress(seenBefore: true)
        noticeRollback()
    }

    func updateCommand(_ request: ControlCommand.UpdateRequest, from peer: PeerCredentials) -> Result<ControlReply, ControlError> {
        switch request {
        case .status:
            return .success(.update(updateStatusJSON()))
        case .install(let sourceText, let confirmed):
            // Root asks knowingly; anyone else on the socket (group stillroom) says so in the request.
            guard peer.uid == 0 || confirmed else {
                return .failure(ControlError(.invalidArgument, "installing an update restarts the box into another version: "
                                             + "run it as root, or confirm with stillroomctl update install \(sourceText) --yes"))
            }
            guard updatesAvailable else {
                return .failure(ControlError(.failed, "system updates are not available on this box (no \(options.updateDirectory): "
                                             + "they are for the appliance image, not the simulator)"))
            }
            let allowList = DownloadHostAllowList(options.downloadHosts)
            let source: UpdateSource
            switch UpdateSource.parse(sourceText, allowList: allowList) {
            case .success(let parsed): source = parsed
            case .failure(let refusal): return .failure(ControlError(.invalidArgument, refusal.message))
            }
            let playing = player.phase == .playing || player.phase == .loading
            switch updates.machine.install(source, playing: playing) {
            case .success(let effects):
                updates.failureNotice = nil
                logger.info("updates: installing from \(source)")
                performUpdate(effects)
                return .success(.update(updateStatusJSON()))
            case .failure(let refusal):
                return .failure(ControlError(.busy, refusal.message))
            }
        }
    }

    /// PLAY and its kin wait while the update's notice stands; what only reads (the timer's state) still answers.
    func refusalWhileUpdating(_ command: ControlCommand) -> ControlError? {
        guard updates.machine.isBusy, command.startsPractice else { return nil }
        return ControlError(.busy, "an update is installing; the box restarts by itself when it is done (stillroomctl update status)")
    }

    var updateFailureStanding: LiveNotices.Standing? {
        updates.failureNotice.map { LiveNotices.Standing(.updateFailed, kind: .updateFailed, message: $0) }
    }

    private func readUpdateProgress(seenBefore: Bool) {
        let path = options.updateDirectory + "/progress"
        guard let bytes = try? FileReading.bytes(path, limit: 16 << 10),
              let report = UpdateProgress(reportText: String(decoding: bytes, as: UTF8.self)) else { return }
        performUpdate(updates.machine.agentReported(report, seenBefore: seenBefore)) // re-arms the silence limit
    }

    private func performUpdate(_ effects: [SystemUpdate.Effect]) {
        for effect in effects {
            switch effect {
            case .requestInstall(let source):
                writeUpdateRequest("action=install\nsource=\(source)\n")
            case .requestRestart:
                logger.info("updates: installed; restarting into it")
                writeUpdateRequest("action=restart\n")
            case .announceFailure(let message):
                logger.warning("updates: not installed: \(message)")
                updates.failureNotice = "The update could not be installed: \(message)"
            case .withdrawRequest:
                // The daemon's own file; unlink never follows a link.
                if unlink(options.updateRequestPath) == 0 { logger.info("updates: the unanswered request taken back") }
            }
        }
        if let limit = updates.machine.silenceLimit { updates.silenceTimer?.schedule(after: limit) } else { updates.silenceTimer?.cancel() }
        refreshModel()
    }

    /// Written beside and renamed, so the agent never reads half a request.
    private func writeUpdateRequest(_ text: String) {
        let path = options.updateRequestPath
        do throws(SystemError) {
            try Files.replaceAtomically(path, with: Array(text.utf8), temporary: path + ".new", mode: 0o640, flags: O_NOFOLLOW)
        } catch {
            let reason = error.reason
            logger.error("updates: cannot ask the agent (\(path)): \(reason)")
            performUpdate(updates.machine.agentReported(UpdateProgress(state: .failed, message: "the update agent could not be asked (\(reason))")))
        }
    }

    private func readSlotStatus() -> SlotStatus? {
        guard let bytes = try? FileReading.bytes(options.updateDirectory + "/status", limit: 16 << 10) else { return nil }
        return SlotStatus(reportText: String(decoding: bytes, as: UTF8.self))
    }

    /// A version that was given up (the box went back by itself) is told on the screen once, as a stored notice
    /// the owner dismisses; the same result is not told again after a restart.
    private func noticeRollback() {
        guard let status = readSlotStatus(), status.lastUpdateRolledBack else { return }
        let message = "A new version did not start well, so the box went back to the one it ran before (\(status.lastResult))."
        do {
            guard try !store.notices(includeDismissed: true).contains(where: { $0.kind == .updateRolledBack && $0.message == message }) else { return }
            try store.addNotice(kind: .updateRolledBack, message: message, now: wallMilliseconds)
            logger.warning("updates: \(status.lastResult)")
        } catch {
            logger.error("updates: the rollback's notice could not be saved: \(error)")
        }
        modelSources.storeChanged = true
        refreshModel()
    }

    func updateStatusJSON() -> JSONValue {
        guard updatesAvailable else { return UpdateStatusJSON.unavailable(folder: options.updateDirectory) }
        return UpdateStatusJSON.make(phase: updates.machine.phase, source: updates.machine.source, slots: readSlotStatus())
    }
}
