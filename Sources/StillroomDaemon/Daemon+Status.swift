import ControlProtocol
import SQLiteStore
import StillroomCore

/// The daemon's state as `stillroomctl status` shows it (and the same shape the CLI builds from the
/// database when the daemon is down).
extension Daemon {
    func statusReport() -> StatusReport {
        var observed = StatusReport.Observed()
        observed.spokenLabels = box.voice.saidCount
        observed.labelPending = box.voice.isWaiting
        observed.spoken = box.voice.recentlySaid
        observed.describer = ui.isDescribing
        observed.cuesPlayed = sounds.cuesPlayed
        // Nothing playing or playing out: a label or a chime alone has been heard to its end.
        observed.outputIdle = engine.isIdle
        observed.inputEvents = inputs.eventsHandled
        observed.framesPresented = screen.map(\.framesPresented)
        observed.framePending = screen?.nextFrameDeadline != nil
        observed.heardSeconds = Self.seconds(listening.heardSeconds)
        observed.screen = screen.map { $0.isScreenOn ? (ui.power == .dim ? "dim" : "on") : "off" } ?? "none"
        observed.page = ui.screenKind(model).rawValue
        if options.timeWarp > 1 {
            // A soak's driver plans in the box's (warped) time: a reminder a few minutes ahead, what was heard.
            observed.timeWarp = StatusReport.TimeWarp(factor: Int(options.timeWarp), wallTime: loop.wallNow.timeIntervalSince1970)
        }
        var error: String?
        if case .failed(let message) = player.phase { error = message }
        if let damage = player.damage { error = damage }
        let live = StatusReport.Live(
            pauseReason: player.phase == .paused ? player.pauseReason ?? .user : nil,
            volume: settings.volume, effectiveVolume: effectiveVolume, headphones: player.headphonesConnected,
            outputName: engine.sink.name, outputAvailable: player.outputAvailable, outputProblem: player.outputProblem,
            error: error, storageProblem: storage.problem, observed: observed)
        let checkpoint = storage.checkpointOnCard.map { saved in
            StatusReport.Checkpoint(session: saved.position.sessionID, position: Self.seconds(saved.position.seconds),
                                    ageSeconds: saved.at.map { Self.seconds((loop.now - $0).seconds) })
        }
        let notices = liveNotices() + ((try? store.notices()) ?? []).map(InterfaceModel.Notice.init)
        return StatusReport(
            state: PlayerState(player.phase), session: player.sessionID, title: player.sessionID == nil ? nil : player.title,
            position: Self.seconds(player.positionSeconds), duration: Self.seconds(player.lengthSeconds),
            resumeOffer: player.resumeOffer.map {
                StatusReport.ResumeOffer(session: $0.position.sessionID, title: $0.title, position: Self.seconds($0.position.seconds))
            },
            lastCheckpoint: checkpoint,
            notices: notices.map { StatusReport.Notice(id: $0.id, kind: $0.kind, message: $0.message) },
            live: live)
    }

    /// Seconds to the millisecond: enough for people, stable in JSON.
    static func seconds(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

extension Daemon {
    /// Minutes after local midnight now.
    var localMinuteOfDay: Int {
        timeZone.rules.minuteOfDay(at: Int64(loop.wallNow.timeIntervalSince1970))
    }
}
