/// The player and the practice ledger inside the box (`Listening`), with the rules around them that were
/// the daemon's:
///
/// - a request for sound while the output is missing tries the output once more first;
/// - accepting the offered place first joins the run it continues;
/// - a recording starting ends the breathing timer;
/// - an event is handled in `Listening`'s two steps: the output's effects, then (as `.settle`, handed back
///   once they are performed) the one save, the long-pause timer and what comes after the save; then
///   (as `.finish`, once those are performed too) what the player shows;
/// - while the output is missing, it is being retried (Box+Timers.swift);
/// - a new phase is said once, when it settles; the position is redrawn once a second, not every report;
/// - what the interface asks of the player goes to the player; a transcript read aloud pauses the
///   recording first (one voice at a time); a download removed stops the player first if it plays it.
extension Box {
    public var player: PlayerMachine { listening.player }

    /// A player event's first step, once what it needs first is done.
    mutating func begin(_ event: PlayerEvent, prepared: Bool, now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        if !prepared {
            let first = preparation(for: event)
            if !first.isEmpty { return first + [.then(.player(event, prepared: true))] }
        }
        let step = listening.begin(event, now: now)
        var effects: [BoxEffect] = []
        if player.phase == .playing || player.phase == .loading {
            effects += finishBreathingTimer(completed: false, now: now, wall: wall)
        }
        return effects + output(step.output) + [.then(.settle(step, of: event))]
    }

    /// An interface effect, with what it asks of the player as player events (handed back as `.then`, so
    /// they come in order with the interface's other effects).
    public func listen(to effect: InterfaceEffect) -> [BoxEffect] {
        switch effect {
        case .play(let id):
            guard let session = model.session(id) else { return [] } // gone from the library meanwhile
            return [.then(.player(.play(sessionID: id, title: session.title)))]
        case .toggle: return [.then(.player(.toggle))]
        case .acceptResume: return [.then(.player(.acceptResume))]
        case .dismissResume: return [.then(.player(.dismissResume))]
        case .stop: return [.then(.player(.stop))]
        case .seek(let seconds): return [.then(.player(.seekTo(seconds: seconds)))]
        case .startBreathingTimer(let pattern, let minutes): return [.then(.startBreathingTimer(pattern: pattern, minutes: minutes))]
        case .stopBreathingTimer: return [.then(.stopBreathingTimer)]
        case .headphones(let connected):
            // The player pauses or not; the daemon then applies the headphone cap.
            return [.then(.player(.headphones(connected: connected))), .interface(.headphones(connected: connected))]
        case .removeDownload(let id):
            return stopIfPlaying(id) + [.interface(.removeDownload(sessionID: id))]
        case .readTranscript(let cue):
            return (player.phase == .playing ? [.then(.player(.pause(.user)))] : []) + [.then(.speech(.readTranscript(fromCue: cue)))]
        case .speak(let text): return [.then(.speech(.label(text, always: false)))]
        case .announce(let text): return [.then(.speech(.label(text, always: true)))]
        case .readAloud(let sentences): return [.then(.speech(.read(sentences)))]
        case .speakAfter(let text): return [.then(.speech(.afterCurrent(text)))]
        case .setFavourite(let id, let on): return [.interface(.setFavourite(sessionID: id, on))]
        case .changeSetting(let key, let value): return [.interface(.changeSetting(key: key, value: value))]
        case .setReminder(let enabled, let minute): return [.interface(.setReminder(enabled: enabled, minuteOfDay: minute))]
        case .startDownload(let id): return [.interface(.startDownload(sessionID: id))]
        case .cancelDownload(let id): return [.interface(.cancelDownload(sessionID: id))]
        case .deleteHistory(let which): return [.interface(.deleteHistory(which))]
        case .dismissNotice(let id): return [.interface(.dismissNotice(id: id))]
        case .setScreenPower(let power): return [.interface(.setScreenPower(power))]
        case .cue(let cue): return [.interface(.cue(cue))]
        case .quit: return [.interface(.quit)]
        case .scheduleTimer(let timer, _), .cancelTimer(let timer):
            preconditionFailure("the interface's timer \(timer) is the box's (Box.wrap)")
        }
    }

    /// The player lets go of `sessionID`'s recording before its file goes (never removed under the player).
    func stopIfPlaying(_ sessionID: String) -> [BoxEffect] {
        player.sessionID == sessionID ? [.then(.player(.stop))] : []
    }

    /// The steps an event needs before the player takes it.
    private func preparation(for event: PlayerEvent) -> [BoxEffect] {
        var first: [BoxEffect] = []
        if !player.outputAvailable, event.asksForSound { first.append(.retryOutput) }
        if event == .acceptResume, let offer = player.resumeOffer { first.append(.joinLatestRun(sessionID: offer.position.sessionID)) }
        return first
    }

    mutating func settle(_ step: Listening.Step, of event: PlayerEvent, now: MonotonicInstant,
                                 wall: UnixMilliseconds) -> [BoxEffect] {
        let settled = listening.settle(step.plan, now: now, wall: wall)
        var effects: [BoxEffect] = []
        effects += runPause(settled.pauseTimer, now: now)
        effects += saving(settled.save)
        effects += output(settled.after)
        if settled.sessionLeft { effects.append(.sessionLeft) }
        return effects + [.then(.finish(event, acted: !step.isEmpty))]
    }

    /// An event's last step, after the save and what followed it (a load answers with events of its own,
    /// which have settled by now): what the player shows now.
    mutating func finish(_ event: PlayerEvent, acted: Bool, now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        var effects = outputRetries(now: now)
        if player.phase != shownPhase {
            shownPhase = player.phase
            effects.append(.playerPhaseChanged(player.phase))
            effects += reminderFollows(now: now, wall: wall)
        }
        if case .heard = event {
            let second = Int(player.positionSeconds)
            if second == shownSecond { return effects }
            shownSecond = second
        }
        return effects + [.rebuildModel]
    }

    func saving(_ save: ProgressSave) -> [BoxEffect] { save.isEmpty ? [] : [.save(save)] }
}
