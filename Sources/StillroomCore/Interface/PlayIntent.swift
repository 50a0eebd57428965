/// What PLAY does now, decided in one place: the press acts on it (`Interface.playPause`), the screen's
/// strip shows it (`InterfaceScene.playMeaning`), the clock face says it (`Interface.playSentence`). The
/// order is the rule: a running breathing timer first, then the offered place, the timer's set-up, a seek
/// being previewed, a session's own page, what is loaded, and last the session to start.
public enum PlayIntent: Equatable, Sendable {
    /// A breathing timer runs: PLAY stops it, whatever else waits (docs/routine.md).
    case stopBreathingTimer
    /// Accept the place offered after a restart.
    case acceptResume(ResumeOffer)
    /// Start the breathing timer: from its set-up screen, or focused on the home list.
    case startBreathingTimer(onSetUp: Bool)
    /// Go to the previewed place; play from there if paused.
    case playFromPreview(seconds: Double, resume: Bool)
    /// Start this session from its beginning: the page's own, or, away from a page, the focused one or the
    /// box's first (`elsewhere`: on the page of a session still arriving, PLAY starts another).
    case start(InterfaceModel.SessionItem, elsewhere: Bool)
    /// Fetch the page's session (again, after a failure).
    case download(InterfaceModel.SessionItem)
    /// Pause or resume what is loaded.
    case pause
    case resume
    /// The loaded session ended or failed: from its beginning again.
    case again(sessionID: String)
    /// Nothing on the box to play.
    case nothing
}

extension Interface {
    /// What PLAY does now, on this screen (see `PlayIntent`).
    public func playIntent(_ model: InterfaceModel) -> PlayIntent {
        let player = model.player
        if model.breathingTimer != nil { return .stopBreathingTimer }
        if let offer = player.resumeOffer { return .acceptResume(offer) }
        if screen == .timerSetup { return .startBreathingTimer(onSetUp: true) }
        if let preview = seekPreview, canSeek(player) { return .playFromPreview(seconds: preview.targetSeconds, resume: !player.isPlaying) }
        var onPageOfAnother = false
        if case .detail(let id) = screen, let session = model.session(id), !(player.hasSession && player.sessionID == id) {
            if session.isPlayable { return .start(session, elsewhere: false) }
            if let status = session.download, status.canDownload { return .download(session) }
            onPageOfAnother = true // still arriving: PLAY means what it means elsewhere
        }
        if player.hasSession, let id = player.sessionID {
            switch player.phase {
            case .ended, .failed: return .again(sessionID: id)
            case .playing: return .pause
            default: return .resume
            }
        }
        var preferred: String?
        if stack.count == 1 || screen == .idle {
            switch focus(of: 0, model: model) {
            case .session(let id)?: preferred = id
            case .timerLink?: return .startBreathingTimer(onSetUp: false)
            default: break
            }
        }
        if screen == .downloads, case .session(let id)? = focus(model) { preferred = id }
        guard let session = model.sessionToStart(preferring: preferred) else { return .nothing }
        return .start(session, elsewhere: onPageOfAnother)
    }
}

extension PlayIntent {
    /// `stillroomctl play` without a session: PLAY seen from outside the screen, since whoever types it does
    /// not see the page, the focus or the timer's set-up. The offered place first; then what is loaded,
    /// resumed (never paused: the command plays; a session playing is left playing, one ended plays
    /// again); else the box's first session; else nothing.
    public static func ofCommand(_ model: InterfaceModel) -> PlayIntent {
        let player = model.player
        if let offer = player.resumeOffer { return .acceptResume(offer) }
        switch player.phase {
        case .playing, .paused, .ended: return .resume
        case .idle, .loading, .failed:
            return model.sessionToStart(preferring: nil).map { .start($0, elsewhere: false) } ?? .nothing
        }
    }
}
