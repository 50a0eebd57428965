import Testing
import StillroomCore

/// Journeys through the interface with scripted presses and turns, as a person in bed would make them.
@Suite struct InterfaceScenarioTests {
    @Test func firstBootLandsOnTheLibraryWithTheBundledSessionReadyForPlay() {
        let box = InterfaceDriver()
        #expect(box.screen == .library)
        #expect(box.kind == .home)
        #expect(box.focus == .session(id: "steady-breath"))
        #expect(box.timers[.dim] != nil && box.timers[.dark] != nil)
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.play(sessionID: "steady-breath")))
        #expect(box.screen == .player)
        #expect(box.model.player.isPlaying)
    }

    @Test func openASessionPlaySeekReadTheTranscriptAndComeBack() {
        let box = InterfaceDriver()
        // Open: the knob moves to the third card and its press opens the session.
        box.turn(2)
        #expect(box.focus == .session(id: "setting-down-the-day"))
        box.press(.knob)
        #expect(box.screen == .detail(sessionID: "setting-down-the-day"))
        #expect(box.focus == .action(.play))
        // Play: the knob's press on the page's first button.
        box.mark()
        box.press(.knob)
        #expect(box.recent.contains(.play(sessionID: "setting-down-the-day")))
        #expect(box.screen == .player)
        // Seek: two detents preview +30 s; nothing moves until the knob rests.
        box.advance(by: .seconds(60))
        box.mark()
        box.turn(2)
        #expect(box.interface.seekPreview != nil)
        #expect(!box.recent.contains { if case .seek = $0 { true } else { false } })
        let target = box.interface.seekPreview!.targetSeconds
        #expect(abs(target - 60.15 - 30) < 0.2) // where it was when the knob first turned, plus 30 s
        box.advance(by: .milliseconds(1300))
        #expect(box.recent.contains(.seek(toSeconds: target)))
        #expect(box.interface.seekPreview == nil)
        // A press commits at once instead of waiting.
        box.turn(-1)
        box.mark()
        box.press(.knob)
        #expect(box.recent.contains { if case .seek = $0 { true } else { false } })
        #expect(box.screen == .player)
        // BACK cancels a preview without seeking.
        box.turn(1)
        box.mark()
        box.press(.back)
        #expect(!box.recent.contains { if case .seek = $0 { true } else { false } })
        #expect(box.screen == .player)
        // Back to the library.
        box.press(.back)
        #expect(box.screen == .detail(sessionID: "setting-down-the-day"))
        box.hold(.back)
        #expect(box.screen == .library)
    }

    @Test func theTranscriptFollowsScrollsAndClosesWithTheKnob() {
        let box = InterfaceDriver()
        box.press(.play)
        box.advance(by: .seconds(37))
        box.press(.knob)
        #expect(box.screen == .transcript)
        #expect(box.kind == .transcript)
        #expect(box.interface.transcriptAnchor == nil)
        box.turn(-3)
        #expect(box.interface.transcriptAnchor != nil)
        // Scrolling back to the lit line follows again.
        box.turn(3)
        #expect(box.interface.transcriptAnchor == nil)
        box.press(.knob)
        #expect(box.screen == .player)
        box.press(.knob)
        box.press(.back)
        #expect(box.screen == .player)
    }

    @Test func favouriteFromTheLibraryThePageAndThePlayer() {
        let box = InterfaceDriver()
        box.mark()
        box.hold(.knob)
        #expect(box.recent.contains(.setFavourite(sessionID: "steady-breath", true)))
        #expect(box.model.session("steady-breath")!.isFavourite)
        box.press(.knob)
        box.hold(.knob)
        #expect(!box.model.session("steady-breath")!.isFavourite)
        box.turn(1) // the favourite button
        #expect(box.focus == .action(.favourite))
        box.press(.knob)
        #expect(box.model.session("steady-breath")!.isFavourite)
        box.press(.play)
        #expect(box.screen == .player)
        box.hold(.knob)
        #expect(!box.model.session("steady-breath")!.isFavourite)
    }

    @Test func theFilterNarrowsTheLibraryAndBackWidensIt() {
        let box = InterfaceDriver()
        box.turn(-1)
        #expect(box.focus == .filter)
        box.press(.knob)
        #expect(box.interface.filter == .breathe)
        let shown = box.interface.focusItems(on: .library, model: box.model).compactMap { item -> String? in
            if case .session(let id) = item.key { id } else { nil }
        }
        #expect(shown == ["steady-breath", "counting-breaths"])
        for _ in 0..<3 { box.press(.knob) }
        #expect(box.interface.filter == .favourites)
        box.press(.knob)
        #expect(box.interface.filter == .onThisBox)
        let onBox = box.interface.focusItems(on: .library, model: box.model).compactMap { item -> String? in
            if case .session(let id) = item.key { id } else { nil }
        }
        #expect(onBox == ["steady-breath", "counting-breaths", "setting-down-the-day", "slow-body-scan"])
        box.press(.back)
        #expect(box.interface.filter == .all)
    }

    @Test func anEmptyFilterStillOffersTheBundledSession() {
        let box = InterfaceDriver()
        box.update { model in for index in model.sessions.indices { model.sessions[index].isFavourite = false } }
        box.turn(-1)
        for _ in 0..<4 { box.press(.knob) }
        #expect(box.interface.filter == .favourites)
        let items = box.interface.focusItems(on: .library, model: box.model)
        #expect(items.contains { $0.key == .session(id: "steady-breath") })
        box.turn(1)
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.play(sessionID: "steady-breath")))
    }

    @Test func historyAndDeletingOneEntryAndThenEverythingWithConfirmation() {
        let box = InterfaceDriver()
        // Down past the sessions to the history link.
        box.turn(20)
        box.turn(-1)
        #expect(box.focus == .historyLink)
        box.press(.knob)
        #expect(box.screen == .history)
        #expect(box.focus == .calendar)
        // To the first recent session, then hold the knob: a confirmation, "Keep it" first.
        let firstRun = box.model.history.recent[0].runID!
        while box.focus != .run(id: firstRun) { box.turn(1) }
        box.hold(.knob)
        #expect(box.screen == .confirm(.deleteRun(id: firstRun, sessionID: box.model.history.recent[0].sessionID)))
        #expect(box.kind == .confirm)
        #expect(box.focus == .keep)
        box.mark()
        box.press(.knob)
        #expect(box.screen == .history)
        #expect(!box.recent.contains { if case .deleteHistory = $0 { true } else { false } })
        box.hold(.knob)
        box.turn(1)
        #expect(box.focus == .confirm)
        box.press(.knob)
        #expect(box.recent.contains(.deleteHistory(.run(id: firstRun))))
        #expect(box.screen == .history)
        // Everything: the button at the end of the list, then the answer.
        box.turn(30)
        #expect(box.focus == .deleteHistory)
        box.press(.knob)
        #expect(box.screen == .confirm(.deleteAllHistory))
        box.press(.back)
        #expect(box.screen == .history)
        box.press(.knob)
        box.turn(1)
        box.mark()
        box.press(.knob)
        #expect(box.recent.contains(.deleteHistory(.all)))
        #expect(box.screen == .history)
        #expect(box.model.history.isEmpty)
    }

    @Test func settingsChangeByPressAndAdjustByTurning() {
        let box = InterfaceDriver()
        box.turn(20)
        #expect(box.focus == .settingsLink)
        box.press(.knob)
        #expect(box.screen == .settings)
        #expect(box.focus == .setting(.textSize))
        box.mark()
        box.press(.knob)
        #expect(box.recent.contains(.changeSetting(key: "text-size", value: "large")))
        #expect(box.model.settings.textSize == .large)
        box.turn(6) // past spoken labels, spoken detail and the key describer
        #expect(box.focus == .setting(.volume))
        box.press(.knob) // adjust
        box.turn(2) // +10
        #expect(box.focus == .setting(.volume)) // the turn adjusted, it did not move on
        box.mark()
        box.press(.knob)
        #expect(box.recent.contains(.changeSetting(key: "volume", value: "70")))
        box.press(.knob)
        box.turn(-3)
        box.press(.back) // cancels the adjustment, stays here
        #expect(box.screen == .settings)
        #expect(box.model.settings.volume == 70)
        // The reminder: turn past "off" to a time.
        while box.focus != .setting(.reminder) { box.turn(1) }
        box.press(.knob)
        box.turn(2)
        box.mark()
        box.press(.knob)
        #expect(box.recent.contains(.setReminder(enabled: true, minuteOfDay: 22 * 60)))
        // Reduce motion and spoken labels toggle.
        box.turn(-9) // back past the caps, the volume, the key describer, spoken detail and spoken labels
        #expect(box.focus == .setting(.reduceMotion))
        box.press(.knob)
        #expect(box.model.settings.reduceMotion)
    }

    @Test func aDownloadStartsFromItsPageAndRemovalAsksFirst() {
        let box = InterfaceDriver()
        while box.focus != .session(id: "sounds-around-you") { box.turn(1) }
        box.press(.knob)
        #expect(box.focus == .action(.download))
        box.mark()
        box.press(.play) // PLAY on a page whose audio is not here fetches it
        #expect(box.recent.contains(.startDownload(sessionID: "sounds-around-you")))
        #expect(box.interface.focusItems(on: box.screen, model: box.model).first?.key == .action(.cancelDownload))
        box.press(.knob)
        #expect(box.recent.contains(.cancelDownload(sessionID: "sounds-around-you")))
        box.hold(.back)
        while box.focus != .session(id: "slow-body-scan") { box.turn(1) }
        box.press(.knob)
        while box.focus != .action(.removeDownload) { box.turn(1) }
        box.press(.knob)
        #expect(box.screen == .confirm(.removeDownload(sessionID: "slow-body-scan")))
        box.turn(1)
        box.mark()
        box.press(.knob)
        #expect(box.recent.contains(.removeDownload(sessionID: "slow-body-scan")))
        #expect(box.screen == .detail(sessionID: "slow-body-scan"))
    }

    @Test func theScreenDimsToTheClockGoesDarkAndOnlyPlayActsInTheDark() {
        let box = InterfaceDriver()
        box.advance(by: .seconds(31))
        #expect(box.power == .dim)
        #expect(box.screen == .idle)
        #expect(box.kind == .idle)
        box.advance(by: .seconds(100))
        #expect(box.power == .off)
        // PLAY plays in the dark and leaves it dark.
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.play(sessionID: "steady-breath")))
        #expect(box.power == .off)
        #expect(!box.recent.contains(.setScreenPower(.on)))
        box.press(.play)
        #expect(box.model.player.phase == .paused)
        // The knob in the dark only wakes (the player is underneath now).
        box.mark()
        box.press(.knob)
        #expect(box.power == .on)
        #expect(box.recent.contains(.setScreenPower(.on)))
        #expect(box.screen == .player)
        #expect(box.interface.transcriptAnchor == nil)
        // Dim again: paused, so the clock face comes; any touch but PLAY goes home.
        box.advance(by: .seconds(31))
        #expect(box.screen == .idle)
        box.press(.back)
        #expect(box.screen == .library)
        #expect(box.power == .on)
    }

    @Test func playingKeepsThePlayerThroughTheDimAndTurnsSeekAfterWaking() {
        let box = InterfaceDriver()
        box.press(.play)
        box.advance(by: .seconds(200))
        #expect(box.power == .off)
        #expect(box.screen == .player)
        box.turn(1) // wakes only
        #expect(box.interface.seekPreview == nil)
        box.advance(by: .seconds(1))
        box.turn(1)
        #expect(box.interface.seekPreview != nil)
    }

    @Test func theResumeOfferTakesPlayAndBack() {
        let box = InterfaceDriver()
        box.update { model in
            model.player.resumeOffer = ResumeOffer(title: "Setting down the day",
                                                   position: PlaybackPosition(sessionID: "setting-down-the-day", frame: 205 * 44_100, sampleRate: 44_100))
        }
        #expect(box.kind == .resumeOffer)
        box.turn(1) // nothing to move, nothing breaks
        box.mark()
        box.press(.back)
        #expect(box.recent.contains(.dismissResume))
        #expect(box.kind == .home)
        box.update { model in
            model.player.resumeOffer = ResumeOffer(title: "Setting down the day",
                                                   position: PlaybackPosition(sessionID: "setting-down-the-day", frame: 205 * 44_100, sampleRate: 44_100))
        }
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.acceptResume))
        #expect(box.screen == .player)
        #expect(box.model.player.sessionID == "setting-down-the-day")
    }

    @Test func aNoticeIsReadAndDismissedFromTheLibrary() {
        let box = InterfaceDriver()
        box.update { model in model.notices = [InterfaceModel.Notice(id: 3, kind: .outputLost, message: "The USB audio device went away.")] }
        // A new notice takes the library's focus when the library is next shown.
        box.hold(.back)
        #expect(box.focus == .notice(id: 3))
        box.press(.knob)
        #expect(box.screen == .notice(id: 3))
        #expect(box.kind == .notice)
        #expect(box.focus == .reading(0)) // reading starts at the top
        box.turn(10)
        #expect(box.focus == .dismiss)
        box.turn(-1)
        #expect(box.focus == .reading(2)) // the last sentence of what to do
        box.press(.back)
        #expect(box.screen == .library)
        #expect(box.model.notices.count == 1)
        box.press(.knob)
        box.turn(5)
        box.mark()
        box.press(.knob)
        #expect(box.recent.contains(.dismissNotice(id: 3)))
        #expect(box.screen == .library)
        #expect(box.model.notices.isEmpty)
    }

    /// "Elsewhere" is the control socket (`stillroomctl play`, typically over SSH); the interface only
    /// sees the model change, which is what this pure test drives.
    @Test func aSessionStartedFromTheCLIIsShownUnlessSomeoneIsBusyOnTheBox() {
        func startedElsewhere(_ box: InterfaceDriver) {
            box.update { model in
                model.player = InterfaceModel.PlayerInfo(phase: .playing, sessionID: "tide-breath", title: "Tide breath",
                                                         positionSeconds: 0, positionAt: box.now, lengthSeconds: 420)
            }
        }
        let onLibrary = InterfaceDriver()
        startedElsewhere(onLibrary)
        #expect(onLibrary.screen == .player)
        // Someone in the settings keeps their place; the strip says what plays.
        let inSettings = InterfaceDriver()
        while inSettings.focus != .settingsLink { inSettings.turn(1) }
        inSettings.press(.knob)
        #expect(inSettings.screen == .settings)
        startedElsewhere(inSettings)
        #expect(inSettings.screen == .settings)
        // A pause and resume from elsewhere is not a start: the screen stays where the person put it.
        let box = InterfaceDriver()
        box.press(.play)
        box.press(.back)
        #expect(box.screen == .library)
        box.update { $0.player.phase = .paused }
        box.update { $0.player.phase = .playing }
        #expect(box.screen == .library)
    }

    @Test func newDimDelaysFromTheCLITakeEffectAtOnce() {
        let box = InterfaceDriver()
        box.advance(by: .seconds(5))
        box.update { try! $0.settings.set("dim-after", to: "3600") }
        #expect(box.timers[.dim] == box.now + .seconds(3600))
        box.advance(by: .seconds(600))
        #expect(box.power == .on)
    }

    @Test func headphonesOutPausesAndIsSpokenWhenLabelsAreOn() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        let box = InterfaceDriver(model: model)
        box.press(.play)
        box.mark()
        box.input.plug(false)
        #expect(box.recent.contains(.headphones(connected: false)))
        box.update { model in
            model.player.phase = .paused
            model.player.pauseReason = .headphonesRemoved
        }
        #expect(box.recent.contains(.speak("Headphones out. Paused.")))
    }

    @Test func spokenLabelsSayWhereTheFocusLands() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        let box = InterfaceDriver(model: model)
        box.mark()
        box.turn(1)
        #expect(box.recent.contains { if case .speak(let text) = $0 { text.hasPrefix("Counting breaths.") } else { false } })
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.speak("Playing Counting breaths.")))
    }
}

@Suite struct TranscriptReadingTests {
    @Test func holdingTheKnobOnTheTranscriptReadsItAloudFromTheLineInView() {
        let driver = InterfaceDriver(model: InterfaceSamples.model())
        driver.press(.play)   // the first-boot session, with a transcript
        driver.press(.knob)   // the transcript
        #expect(driver.interface.screen == .transcript)
        driver.turn(2)        // two lines on
        driver.hold(.knob)
        guard case .readTranscript(let cue)? = driver.effects.last(where: { if case .readTranscript = $0 { true } else { false } }) else {
            Issue.record("no reading asked for")
            return
        }
        #expect(cue >= 2)
    }
}
