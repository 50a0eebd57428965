import StillroomCore
import Testing

/// One "what PLAY does" (PlayIntent.swift): the press, the strip, the clock face's sentence and the CLI's
/// `play` all read it, so what the box says PLAY does is what PLAY does.
@Suite struct PlayIntentTests {
    func spoken(_ effects: [InterfaceEffect]) -> [String] {
        effects.compactMap { if case .speak(let text) = $0 { text } else if case .announce(let text) = $0 { text } else { nil } }
    }

    /// On the clock face, the sentence names the session the press plays: the one focused on the home list,
    /// not the box's first (they disagreed: the sentence named the first-boot session).
    @Test func theClockFaceSaysWhatThePressPlays() throws {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        let box = InterfaceDriver(model: model)
        box.turn(1)
        guard case .session(let focused)? = box.interface.focus(box.model) else {
            Issue.record("the knob did not land on a session")
            return
        }
        #expect(focused != box.model.firstBootSessionID)
        box.advance(by: .seconds(600))
        #expect(box.interface.isDark && box.interface.screen == .idle)
        let title = try #require(box.model.session(focused)?.title)
        #expect(box.interface.playIntent(box.model) == .start(try #require(box.model.session(focused)), elsewhere: false))
        box.mark()
        box.turn(1) // a touch in the dark: the clock face says itself
        #expect(spoken(box.recent).contains { $0.contains("PLAY plays \(title).") }, "\(spoken(box.recent))")
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.play(sessionID: focused)), "\(box.recent)")
    }

    /// The CLI's `play` sees no screen: the offered place, else what is loaded (never paused), else the
    /// box's first session.
    @Test func theCommandPlaysTheOfferWhatIsLoadedOrTheFirstSession() {
        var model = InterfaceSamples.model()
        model.player = InterfaceModel.PlayerInfo()
        let first = model.sessionToStart(preferring: nil)!
        #expect(PlayIntent.ofCommand(model) == .start(first, elsewhere: false))
        model.player.phase = .playing
        model.player.sessionID = first.id
        #expect(PlayIntent.ofCommand(model) == .resume, "a session playing is never paused by play")
        model.player.phase = .paused
        #expect(PlayIntent.ofCommand(model) == .resume)
        let offer = ResumeOffer(title: first.title, position: PlaybackPosition(sessionID: first.id, frame: 44_100 * 60, sampleRate: 44_100))
        model.player.resumeOffer = offer
        #expect(PlayIntent.ofCommand(model) == .acceptResume(offer))
        var empty = InterfaceModel()
        empty.sessions = []
        #expect(PlayIntent.ofCommand(empty) == .nothing)
    }
}
