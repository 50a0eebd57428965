import Testing
import StillroomCore

/// The whole journey done by ear alone: spoken labels on, the screen dark the whole time, and every
/// step checked only through what the box says — choose, play, pause, seek, resume after a restart, and
/// the history. docs/accessibility.md walks the same path for a person.
@Suite struct ByEarJourneyTests {
    func ears() -> InterfaceDriver {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        return InterfaceDriver(model: model)
    }

    /// What the box said since the last `mark()`.
    func heard(_ box: InterfaceDriver) -> [String] {
        box.recent.compactMap { if case .speak(let text) = $0 { text } else { nil } }
    }

    /// One turn of the knob as its own gesture: a pause first, so it is not the tail of the last spin
    /// (which waking from dark swallows).
    func turnAlone(_ box: InterfaceDriver, _ detents: Int = 1) {
        box.advance(by: .seconds(1))
        box.turn(detents)
    }

    /// Lets the screen dim and blank, as it does with nobody looking.
    func letItGoDark(_ box: InterfaceDriver) {
        box.advance(by: .seconds(600))
        #expect(box.interface.isDark)
    }

    @Test func chooseAndPlayWithTheScreenDark() {
        let box = ears()
        letItGoDark(box)
        // The first turn in the dark wakes the clock face, which says the time and what to do.
        box.mark()
        box.turn(1)
        let face = heard(box).joined()
        #expect(face.contains("PLAY plays Steady breath."))
        #expect(face.hasSuffix("Turn the knob for the library."))
        // The next turn opens the library and says where the knob is.
        box.mark()
        turnAlone(box)
        #expect(heard(box).contains { $0.hasPrefix("Library. Steady breath.") })
        // And the next moves on and names the session: title, length, theme.
        box.mark()
        turnAlone(box)
        let label = heard(box).last ?? ""
        #expect(label.hasPrefix("Counting breaths."))
        #expect(label.contains("minutes"))
        box.mark()
        box.press(.play)
        #expect(heard(box) == ["Playing Counting breaths."])
        #expect(box.recent.contains(.play(sessionID: "counting-breaths")))
    }

    @Test func pauseSaysWhereItStoppedAndWhatIsLeft() {
        let box = ears()
        box.turn(1)
        box.press(.play)
        box.advance(by: .seconds(130))
        #expect(box.interface.isDark)
        // PLAY acts in the dark and says where it paused.
        box.mark()
        box.press(.play)
        let length = box.model.player.lengthSeconds
        let left = Int((length - 130).rounded(.up) + 59) / 60
        #expect(heard(box) == ["Paused at 2 minutes 10 seconds, \(left) minutes left."])
        box.mark()
        box.press(.play)
        #expect(heard(box) == ["Playing Counting breaths."])
    }

    @Test func aTouchInTheDarkOnThePlayerSaysWhatPlaysAndWhere() {
        let box = ears()
        box.press(.play) // the first-boot session
        box.advance(by: .seconds(200))
        #expect(box.interface.isDark)
        box.mark()
        box.turn(1) // wakes only
        #expect(heard(box) == ["Steady breath. Playing at 3 minutes 20 seconds, 2 minutes left."])
        #expect(!box.recent.contains { if case .seek = $0 { true } else { false } })
    }

    @Test func seekSaysTheTargetAndWhereItLanded() {
        let box = ears()
        box.press(.play)
        box.advance(by: .seconds(60))
        box.mark()
        box.turn(2)
        #expect(!heard(box).isEmpty) // the preview's target, as the knob moves
        box.advance(by: .seconds(2)) // the knob rests: the seek commits
        let landed = heard(box).last ?? ""
        #expect(landed.hasPrefix("Moved to 1 minute"))
        #expect(box.recent.contains { if case .seek = $0 { true } else { false } })
    }

    @Test func afterARestartTheOfferIsSpokenAndPlayResumes() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        model.player.resumeOffer = ResumeOffer(title: "Setting down the day",
                                               position: PlaybackPosition(sessionID: "setting-down-the-day", frame: 205 * 44_100, sampleRate: 44_100))
        let box = InterfaceDriver(model: model)
        letItGoDark(box)
        box.mark()
        box.turn(1) // wakes the clock face, which says PLAY resumes
        #expect(heard(box).joined().contains("PLAY resumes Setting down the day."))
        turnAlone(box) // the library, with the offer
        turnAlone(box)
        #expect(heard(box).contains("Resume Setting down the day at 3 minutes 25 seconds? PLAY resumes, BACK says not now."))
        box.mark()
        box.press(.play)
        #expect(heard(box) == ["Resuming Setting down the day at 3 minutes 25 seconds."])
        #expect(box.recent.contains(.acceptResume))
    }

    @Test func theHistoryIsReadOutAStopAtATime() {
        let box = ears()
        letItGoDark(box)
        box.turn(1) // wakes
        turnAlone(box) // the library
        var steps = 0
        while box.focus != .historyLink, steps < 20 {
            turnAlone(box)
            steps += 1
        }
        #expect(box.focus == .historyLink)
        box.mark()
        box.press(.knob)
        #expect(box.screen == .history)
        let opening = heard(box).last ?? ""
        #expect(opening.hasPrefix("Practice history."))
        #expect(opening.contains("practised on"))
        // Each turn reads the next stop: weeks, the totals, the recent sessions.
        var said: [String] = []
        for _ in 0..<12 {
            box.mark()
            turnAlone(box)
            said += heard(box)
        }
        #expect(said.contains { $0.contains("Hold the knob to delete it.") })
        #expect(said.allSatisfy { !$0.isEmpty })
    }
}
