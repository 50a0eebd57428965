import Testing
import StillroomCore

/// Every control on every screen in every state: nothing traps, nothing breaks, the stack stays sound.
@Suite struct InterfaceStateTests {
    static let actions: [ControlAction] = [
        .wake, .playPause, .back, .home, .focus(by: 1), .focus(by: -1), .focus(by: 5), .scroll(by: 1), .scroll(by: -2),
        .seekPreview(seconds: 15), .seekPreview(seconds: -60), .select, .toggleTranscript, .contextAction,
        .acceptResume, .dismissResume, .headphones(connected: false), .headphones(connected: true),
    ]

    /// Player states the screens must cope with.
    static func models() -> [(String, InterfaceModel)] {
        let base = InterfaceSamples.model()
        var loading = InterfaceSamples.playing(base, phase: .loading, position: 0)
        loading.player.lengthSeconds = 0
        var failed = InterfaceSamples.playing(base, phase: .failed("The file is damaged."), position: 0)
        failed.transcript = nil
        var empty = base
        empty.sessions = []
        empty.firstBootSessionID = nil
        var downloading = base
        downloading.sessions = downloading.sessions.filter { !$0.isBundled }
        return [
            ("idle", base), ("playing", InterfaceSamples.playing(base)),
            ("paused", InterfaceSamples.playing(base, phase: .paused)), ("loading", loading), ("failed", failed),
            ("ended", InterfaceSamples.playing(base, phase: .ended, position: 300)), ("empty catalog", empty),
            ("only downloads", downloading),
        ]
    }

    @Test func everyActionOnEveryScreenInEveryStateKeepsTheInterfaceSound() {
        let builder = InterfaceScene()
        for state in InterfaceSamples.states(appearance: .day, textSize: .regular) {
            for (label, model) in Self.models() {
                for action in Self.actions {
                    var ui = state.interface
                    _ = ui.update(model: model, now: state.now)
                    let effects = ui.handle(action, model: model, now: state.now)
                    #expect(ui.stack.first?.screen == .library, "\(state.name) \(label) \(action)")
                    if let focus = ui.focus(model) {
                        #expect(ui.focusItems(on: ui.screen, model: model).contains { $0.key == focus })
                    }
                    for effect in effects {
                        switch effect {
                        case .play(let id): #expect(model.session(id)?.isPlayable == true, "\(state.name) \(label) \(action) plays \(id)")
                        case .seek(let seconds): #expect(seconds >= 0 && seconds < max(1, model.player.lengthSeconds))
                        default: break
                        }
                    }
                    let scene = builder.scene(ui, model: model, size: PixelSize(width: 480, height: 320), now: state.now)
                    #expect(scene.hasUniqueIDs, "\(state.name) \(label) \(action)")
                }
            }
        }
    }

    @Test func theMapperKnowsEveryScreenTheInterfaceShows() {
        var mapper = ControlMapper()
        let screens: [Screen] = [.library, .detail(sessionID: "a"), .player, .transcript, .history, .settings, .downloads,
                                 .confirm(.deleteAllHistory), .notice(id: 1), .idle, .timerSetup, .breathingTimer]
        for screen in screens {
            let kind = screen.kind
            let knob = mapper.action(for: .button(.knob, .pressed), on: kind, dark: false)
            let release = mapper.action(for: .button(.knob, .released(long: false)), on: kind, dark: false)
            #expect(knob == (kind == .idle ? .home : nil))
            if kind != .idle { #expect(release != nil, "\(screen)") }
        }
    }

    @Test func aConfirmationTakesTheKnobAndBackLikeAList() {
        var mapper = ControlMapper()
        #expect(mapper.action(for: .button(.knob, .pressed), on: .confirm, dark: false) == nil)
        #expect(mapper.action(for: .button(.knob, .released(long: false)), on: .confirm, dark: false) == .select)
        #expect(mapper.action(for: .button(.back, .pressed), on: .confirm, dark: false) == nil)
        #expect(mapper.action(for: .button(.back, .released(long: false)), on: .confirm, dark: false) == .back)
        #expect(mapper.action(for: .button(.knob, .pressed), on: .confirm, dark: false) == nil)
        #expect(mapper.action(for: .button(.knob, .longPress), on: .confirm, dark: false) == nil)
        #expect(mapper.action(for: .turn(.init(direction: 1, at: .zero)), on: .confirm, dark: false) == .focus(by: 1))
        #expect(mapper.action(for: .button(.play, .pressed), on: .confirm, dark: false) == .playPause)
    }

    @Test func aSeekNeverLandsOnTheLastSecond() {
        let model = InterfaceSamples.playing(InterfaceSamples.model(), position: 290)
        var ui = Interface(showing: [Page(.player)])
        let now = InterfaceSamples.now
        _ = ui.handle(.seekPreview(seconds: 60), model: model, now: now)
        #expect(ui.seekPreview?.targetSeconds == 299)
        _ = ui.handle(.seekPreview(seconds: -600), model: model, now: now)
        #expect(ui.seekPreview?.targetSeconds == 0)
        let early = ui.handle(timer: .seekCommit, model: model, now: now + .milliseconds(500))
        #expect(early == [.scheduleTimer(.seekCommit, at: now + Interface.seekRest)])
        let due = ui.handle(timer: .seekCommit, model: model, now: now + Interface.seekRest)
        #expect(due.contains(.seek(toSeconds: 0)))
    }

    @Test func screensThatLoseTheirSubjectClose() {
        var ui = Interface(showing: [Page(.detail(sessionID: "sounds-around-you")), Page(.confirm(.removeDownload(sessionID: "sounds-around-you")))])
        var model = InterfaceSamples.model()
        _ = ui.update(model: model, now: InterfaceSamples.now)
        #expect(ui.screen == .detail(sessionID: "sounds-around-you")) // nothing to remove: the question goes
        model.sessions.removeAll { $0.id == "sounds-around-you" }
        _ = ui.update(model: model, now: InterfaceSamples.now)
        #expect(ui.screen == .library)
    }

    @Test func theIdleFaceShowsOnlyWhenNothingPlays() {
        var ui = Interface(showing: [Page(.settings)])
        let playing = InterfaceSamples.playing(InterfaceSamples.model())
        #expect(ui.handle(timer: .dim, model: playing, now: InterfaceSamples.now) == [.setScreenPower(.dim)])
        #expect(ui.screen == .settings)
        var quiet = Interface(showing: [Page(.settings)])
        _ = quiet.handle(timer: .dim, model: InterfaceSamples.model(), now: InterfaceSamples.now)
        #expect(quiet.screen == .idle)
        #expect(quiet.power == .dim)
        _ = quiet.handle(timer: .dark, model: InterfaceSamples.model(), now: InterfaceSamples.now)
        #expect(quiet.isDark)
        // A wake lights it and starts the timers again from the touch.
        let effects = quiet.handle(.wake, model: InterfaceSamples.model(), now: InterfaceSamples.now)
        #expect(effects.contains(.setScreenPower(.on)))
        #expect(effects.contains(.scheduleTimer(.dim, at: InterfaceSamples.now + .seconds(30))))
        #expect(effects.contains(.scheduleTimer(.dark, at: InterfaceSamples.now + .seconds(120))))
    }
}
