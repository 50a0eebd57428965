import StillroomCore
import TestSupport
import Testing

/// Using the box by ear as well as the best talking-book players. Pure interface, manual clock,
/// the controls through ControlInput (chords and holds with time moving on); the only assertions on what the
/// box says and on what it does (or, with the key describer on, does not do).
func said(_ box: InterfaceDriver) -> [String] {
    box.recent.compactMap {
        switch $0 {
        case .speak(let text), .announce(let text), .speakAfter(let text): text
        case .readAloud(let sentences): sentences.joined(separator: " ")
        default: nil
        }
    }
}

/// Whether any effect since `mark()` changes something beyond the voice, the describer's own timer and
/// the speech itself (what the key describer must never do).
func changedAnything(_ box: InterfaceDriver) -> [InterfaceEffect] {
    box.recent.filter {
        switch $0 {
        case .speak, .announce, .speakAfter, .cue: false
        case .scheduleTimer(.describer, _), .cancelTimer(.describer): false
        default: true
        }
    }
}

@Suite struct KeyDescriberTests {
    /// Steady breath playing 2 minutes 10 seconds in, labels off (the describer speaks regardless).
    func playing() -> InterfaceDriver {
        let box = InterfaceDriver()
        box.press(.play)
        box.advance(by: .seconds(130))
        return box
    }

    @Test func theChordTurnsItOnAndEachControlSaysWhatItWouldDoAndDoesNothing() {
        let box = playing()
        #expect(box.interface.isDark)
        box.mark()
        box.describerChord()
        // BACK first in the dark only lights the screen; PLAY joining the chord does nothing of its own.
        #expect(!box.recent.contains(.toggle))
        #expect(box.model.player.phase == .playing)
        #expect(said(box).last?.hasPrefix("Key describer on.") == true)
        #expect(box.interface.isDescribing)
        let screenBefore = box.interface.screen
        let powerBefore = box.power

        // PLAY.
        box.mark()
        box.press(.play)
        #expect(said(box) == ["PLAY: pauses Steady breath."])
        #expect(changedAnything(box).isEmpty, "\(changedAnything(box))")
        // A turn: the seek it would start, and where the recording is now.
        box.advance(by: .seconds(1))
        box.mark()
        box.turn(1)
        let position = Int(box.model.player.position(at: box.now))
        #expect(said(box) == ["Turn: seeks, 15 seconds a click, further when turned faster; now at 2 minutes \(position - 120)."])
        #expect(changedAnything(box).isEmpty, "\(changedAnything(box))")
        #expect(box.interface.seekPreview == nil)
        // BACK, the knob's press, the knob held, BACK held and let go.
        box.mark()
        box.press(.back)
        #expect(said(box) == ["BACK: back to the library."])
        box.mark()
        box.press(.knob)
        #expect(said(box) == ["The knob's press: opens the transcript."])
        box.mark()
        box.hold(.knob)
        #expect(said(box) == ["The knob, held: adds Steady breath to favourites."])
        box.mark()
        box.hold(.back)
        #expect(said(box) == ["BACK, held and let go: home to the library."])
        #expect(changedAnything(box).isEmpty, "\(changedAnything(box))")
        // Nothing happened: the same screen, the same light, still playing, not a favourite.
        #expect(box.interface.screen == screenBefore)
        #expect(box.power == powerBefore)
        #expect(box.model.player.phase == .playing)
        #expect(box.model.session("steady-breath")?.isFavourite == false)

        // The same chord turns it off, and the controls work again.
        box.mark()
        box.describerChord()
        #expect(said(box).last == "Key describer off. The controls work again.")
        #expect(!box.interface.isDescribing)
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.toggle))
    }

    @Test func aMinuteWithoutATouchTurnsItOffAndSaysSo() {
        let box = playing()
        box.describerChord()
        box.advance(by: .seconds(50))
        box.mark()
        box.press(.play) // a touch: the minute starts again
        #expect(said(box) == ["PLAY: pauses Steady breath."])
        box.mark()
        box.advance(by: .seconds(59))
        #expect(said(box).isEmpty)
        #expect(box.interface.isDescribing)
        box.advance(by: .seconds(2))
        #expect(said(box) == ["A minute without a touch: key describer off. The controls work again."])
        #expect(!box.interface.isDescribing)
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.toggle))
    }

    /// While it is on the screen stays as it was (it dimmed and went dark before, and a screen gone back
    /// to the idle face changed what BACK does under the fingers): the controls described are the ones the
    /// screen shows. Off, the screen dims in its own time again.
    @Test func itKeepsTheScreenAsItIsWhileOn() {
        let box = playing()
        box.describerChord() // BACK's press lit the screen
        // Touches every 50 s keep the describer on, far past the dim and dark delays.
        for _ in 0..<3 {
            box.advance(by: .seconds(50))
            box.press(.play)
        }
        #expect(!box.interface.isDark)
        #expect(box.interface.screen == .player)
        box.mark()
        box.press(.knob)
        #expect(said(box) == ["The knob's press: opens the transcript."])
        box.mark()
        box.press(.play)
        #expect(said(box) == ["PLAY: pauses Steady breath."])
        #expect(changedAnything(box).isEmpty, "\(changedAnything(box))")
        box.advance(by: .seconds(61))
        #expect(!box.interface.isDescribing)
        box.advance(by: .seconds(600))
        #expect(box.interface.isDark, "the screen never went dark after the describer")
    }

    @Test func theSettingsRowTurnsItOn() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        let box = InterfaceDriver(model: model)
        box.interface = Interface(showing: [Page(.settings, focus: .setting(.keyDescriber))])
        box.mark()
        box.press(.knob)
        #expect(box.interface.isDescribing)
        #expect(said(box).last?.hasPrefix("Key describer on.") == true)
        box.mark()
        box.press(.back)
        #expect(said(box) == ["BACK: back to the library."])
        #expect(box.interface.screen == .settings)
    }

    @Test func onTheLibraryItNamesWhatPlayWouldPlayAndWhereTheKnobIs() {
        let box = InterfaceDriver()
        box.describerChord()
        box.mark()
        box.press(.play)
        #expect(said(box) == ["PLAY: plays Steady breath."])
        box.mark()
        box.turn(1)
        #expect(said(box) == ["Turn: moves through this screen; now on Steady breath."])
        box.mark()
        box.press(.knob)
        #expect(said(box) == ["The knob's press: opens Steady breath."])
        #expect(changedAnything(box).isEmpty, "\(changedAnything(box))")
    }
}

@Suite struct SpokenGuideTests {
    /// Which guide page each sample screen is.
    static let pages: [String: Guide.Page] = [
        "library": .library, "detail": .session, "player": .player, "transcript": .transcript, "history": .history,
        "settings": .settings, "downloads": .downloads, "confirm": .question, "notice": .notice, "resume": .resumeOffer,
        "idle": .clock, "timer-setup": .timerSetup, "timer": .breathingTimer, "update": .update,
    ]

    @Test func holdingBackForThreeSecondsSpeaksTheGuideToEachScreenAndGoesNowhere() {
        let states = InterfaceSamples.states(appearance: .day, textSize: .regular).prefix(InterfaceSamples.screenCount)
        #expect(Set(states.map(\.name)) == Set(Self.pages.keys))
        for state in states {
            let box = InterfaceDriver(model: state.model, now: state.now)
            box.interface = state.interface
            // The lit clock face goes home at any touch but PLAY (docs/controls.md); its own guide is heard
            // where it rests, in the dark, below.
            let lit = state.name == "idle"
            let stack = lit ? [Page(.library)] : box.interface.stack
            box.mark()
            box.holdForGuide()
            let page = lit ? .library : Self.pages[state.name]!
            #expect(said(box) == [Guide.text(page)], "\(state.name)")
            // Letting BACK go after the guide does not also go back or home.
            #expect(box.interface.stack == stack, "\(state.name)")
            #expect(!box.recent.contains(.stopBreathingTimer), "\(state.name)")
        }
    }

    @Test func onTheDarkClockFaceTheGuideIsTheClocks() {
        let box = InterfaceDriver()
        box.advance(by: .seconds(600))
        #expect(box.interface.isDark && box.interface.screen == .idle)
        box.mark()
        box.holdForGuide() // BACK's press lights the screen, and the clock face stays
        #expect(said(box) == [Guide.text(.clock)])
        #expect(box.interface.screen == .idle)
    }

    @Test func aShortHoldStillGoesHomeWhenLetGo() {
        let box = InterfaceDriver()
        box.interface = Interface(showing: [Page(.settings)])
        box.holdTogether([.back], for: .milliseconds(1500))
        #expect(box.interface.stack == [Page(.library)])
    }

    @Test func theGuideIsSpokenWithLabelsOffAndWithTheDescriberOn() {
        let box = InterfaceDriver()
        #expect(!box.model.settings.spokenLabels)
        box.mark()
        box.holdForGuide()
        #expect(said(box) == [Guide.text(.library)])
        box.describerChord()
        box.mark()
        box.holdForGuide()
        #expect(said(box) == [Guide.text(.library)])
        #expect(box.interface.isDescribing)
    }

    /// The guide is read a sentence at a time (a minute of speech made in one piece held the loop a second
    /// on this machine, several on a Pi): the sentences are the whole guide, each a sentence, none long.
    @Test func theGuideIsReadASentenceAtATimeAndTheSentencesAreTheWholeGuide() {
        for page in Guide.Page.allCases {
            let sentences = Guide.sentences(page)
            #expect(sentences.joined(separator: " ") == Guide.text(page), "\(page)")
            // "Guide to …", at least one about the controls, and the six of the help.
            #expect((8...20).contains(sentences.count), "\(page): \(sentences.count) sentences")
            for sentence in sentences {
                #expect(sentence.hasSuffix(".") && sentence.first?.isUppercase == true && sentence.count <= 200, "\(page): \(sentence)")
            }
        }
    }

    @Test func theDocsShowTheSameWords() throws {
        let doc = Files.read(RepositoryPaths.root + "/docs/accessibility.md")
        let text = String(decoding: doc, as: UTF8.self)
        #expect(text.contains(Guide.help), "docs/accessibility.md does not show Guide.help word for word")
        for page in Guide.Page.allCases {
            #expect(text.contains(Guide.controls(page)), "docs/accessibility.md does not show the guide to \(Guide.name(page))")
        }
    }
}

@Suite struct ChordTests {
    @Test func backAndTheKnobHeldTurnLabelsOnAndOffWithoutEitherDoingItsJob() {
        let box = InterfaceDriver()
        box.interface = Interface(showing: [Page(.library, focus: .session(id: "steady-breath"))])
        box.mark()
        box.labelsChord()
        #expect(box.model.settings.spokenLabels)
        #expect(said(box) == ["Spoken labels on."])
        // The knob's long press came at 0.8 s: no favourite; BACK's release: not home, not back.
        #expect(box.model.session("steady-breath")?.isFavourite == false)
        #expect(box.interface.stack == [Page(.library, focus: .session(id: "steady-breath"))])
        box.mark()
        box.labelsChord()
        #expect(!box.model.settings.spokenLabels)
        #expect(said(box) == ["Spoken labels off."]) // said although labels are now off
    }

    @Test func playJoiningBackDoesNotPlay() {
        let box = InterfaceDriver()
        box.mark()
        box.describerChord()
        #expect(!box.recent.contains { if case .play = $0 { true } else { false } })
        #expect(box.model.player.phase == .idle)
    }
}

@Suite struct NoticeSpeechTests {
    func listening() -> InterfaceDriver {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        let box = InterfaceDriver(model: model)
        box.press(.play)
        box.advance(by: .seconds(20))
        return box
    }

    static let failed = InterfaceModel.Notice(id: 41, kind: .downloadFailed,
                                              message: "one-point: The server refused the file (HTTP 404). Check the address in the manifest.")

    @Test func aFailedDownloadIsHeldBackWhileTheRecordingPlaysAndSaidWithItsAdviceAtTheEnd() {
        let box = listening()
        box.mark()
        box.update { $0.notices.append(Self.failed) }
        #expect(said(box).isEmpty) // not over the narration
        box.advance(by: .seconds(60))
        #expect(said(box).isEmpty)
        // The recording ends: "Session finished.", then the notice after it, once, with what to do.
        box.update {
            $0.player.positionSeconds = $0.player.lengthSeconds
            $0.player.phase = .ended
        }
        let words = said(box)
        #expect(words.first == "Session finished.")
        #expect(box.recent.last == .speakAfter("Notice: A download failed. one-point: The server refused the file (HTTP 404). "
            + "Check the address in the manifest. What to do: Open the session in the library to try again, or remove it to free the space."))
        box.mark()
        box.update { $0.todayMinutes = 5 }
        #expect(said(box).isEmpty) // once
    }

    @Test func atAPauseTheHeldNoticeFollowsWhatThePauseSays() {
        let box = listening()
        box.update { $0.notices.append(InterfaceModel.Notice(id: -1, kind: .storageReadOnly, message: "The memory card cannot be written.")) }
        box.mark()
        box.press(.play)
        let words = said(box)
        #expect(words.first?.hasPrefix("Paused at 20 seconds") == true)
        #expect(box.recent.last == .speakAfter("Notice: Nothing can be saved. The memory card cannot be written. What to do: "
            + "Listen as usual; when the box restarts it will try again. Dismissing this card hides it until then."))
    }

    @Test func withNothingPlayingANoticeIsSaidAtOnceAndShortLabelsSayItsHeading() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        model.settings.verbosity = .short
        let box = InterfaceDriver(model: model)
        box.mark()
        box.update { $0.notices.append(InterfaceModel.Notice(id: 3, kind: .reminder, message: "Time for your practice.")) }
        #expect(said(box) == ["Notice: Time for a pause."])
    }

    @Test func aNoticeDismissedBeforeItsMomentIsNotSaid() {
        let box = listening()
        box.update { $0.notices.append(Self.failed) }
        box.update { $0.notices = [] }
        box.mark()
        box.press(.play)
        #expect(!said(box).contains { $0.hasPrefix("Notice") })
    }

    @Test func atStartTheResumeOfferAndTheNoticesOnScreenAreSaidOnce() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        model.player.resumeOffer = ResumeOffer(title: "Setting down the day",
                                               position: PlaybackPosition(sessionID: "setting-down-the-day", frame: 205 * 44_100, sampleRate: 44_100))
        model.notices = [Self.failed]
        let box = InterfaceDriver(model: model)
        let words = said(box)
        #expect(words.first == "Resume Setting down the day at 3 minutes 25 seconds? PLAY resumes, BACK says not now.")
        #expect(words.last?.hasPrefix("Notice: A download failed. one-point: The server refused") == true)
        #expect(words.count == 2)
    }
}

@Suite struct AudibleSeekTests {
    func playing(_ configure: (inout Settings) -> Void = { _ in }) -> InterfaceDriver {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        configure(&model.settings)
        let box = InterfaceDriver(model: model)
        box.press(.play)
        box.advance(by: .seconds(10))
        return box
    }

    func ticks(_ box: InterfaceDriver) -> Int { box.recent.filter { $0 == .cue(.tick) }.count }

    @Test func eachStepTicksAndTheTargetIsSaidAtMostOnceASecond() {
        let box = playing()
        box.mark()
        box.turn(8) // 150 ms apart (the first 150 ms from now): 1.2 s of turning, +2 minutes
        #expect(ticks(box) == 8)
        // The first step is said at once; the next no sooner than a second later (the eighth, at 1.2 s).
        #expect(said(box) == ["25 seconds", "2 minutes 10 seconds"])
        // Where the knob rests is said when the seek commits.
        box.mark()
        box.advance(by: .seconds(2))
        #expect(said(box) == ["Moved to 2 minutes 10 seconds."])
        let seeks = box.recent.compactMap { if case .seek(let seconds) = $0 { seconds } else { nil } }
        #expect(seeks.count == 1 && Int(seeks[0]) == 130)
    }

    @Test func aFastSpinTicksAtMostTenTimesASecond() {
        let box = playing()
        box.mark()
        for _ in 0..<20 {
            box.advance(by: .milliseconds(30))
            box.input.turn(1, at: box.now)
        }
        // 600 ms of spinning, a detent every 30 ms: a tick at 30, 150, 270, 390 and 510 ms, never two
        // within 100 ms; and the target said once.
        #expect(ticks(box) == 5)
        #expect(said(box).count == 1)
    }

    @Test func shortLabelsSayOnlyTheTarget() {
        let box = playing { $0.verbosity = .short }
        box.mark()
        box.turn(8)
        box.advance(by: .seconds(2))
        #expect(said(box) == ["25 seconds", "2 minutes 10", "Moved to 2 minutes 10."])
    }

    @Test func withLabelsOffTheSeekIsSilent() {
        let box = playing { $0.spokenLabels = false }
        box.mark()
        box.turn(3)
        #expect(ticks(box) == 0)
        #expect(said(box).isEmpty)
    }

    /// Seeking by ear to a chosen minute, without looking: turn one click at a time, listen, and stop when
    /// the voice says the minute wanted.
    @Test func seekingByEarToTheThirdMinute() {
        let box = playing()
        box.advance(by: .seconds(600)) // the screen goes dark; the recording plays on
        box.update { $0.player.positionSeconds = 30; $0.player.positionAt = box.now }
        box.turn(1) // wakes only
        var heard = ""
        var clicks = 0
        while !heard.contains("3 minutes"), clicks < 40 {
            box.advance(by: .seconds(1.5)) // listen: each click is its own gesture, the last one commits
            box.mark()
            box.turn(1)
            clicks += 1
            heard = said(box).last ?? ""
        }
        box.mark()
        box.advance(by: .seconds(2))
        #expect(said(box).last?.hasPrefix("Moved to 3 minutes") == true)
        let position = box.model.player.position(at: box.now)
        #expect(position >= 180 && position < 195, "at \(position) s after \(clicks) clicks")
    }
}

@Suite struct VerbosityTests {
    @Test func shortLabelsSayTheNameAndFullOnesTheDetails() {
        for verbosity in Settings.Verbosity.allCases {
            var model = InterfaceSamples.model()
            model.settings.spokenLabels = true
            model.settings.verbosity = verbosity
            let box = InterfaceDriver(model: model)
            box.mark()
            box.turn(1)
            let label = said(box).last ?? ""
            switch verbosity {
            case .full:
                #expect(label.hasPrefix("Counting breaths. "))
                #expect(label.contains("minutes"))
            case .short:
                #expect(label == "Counting breaths.")
            }
        }
    }

    @Test func theSettingsRowSwitchesBetweenThem() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        let box = InterfaceDriver(model: model)
        box.interface = Interface(showing: [Page(.settings, focus: .setting(.spokenDetail))])
        box.mark()
        box.press(.knob)
        #expect(box.model.settings.verbosity == .short)
        #expect(said(box) == ["Short labels."])
        box.mark()
        box.press(.knob)
        #expect(box.model.settings.verbosity == .full)
        #expect(said(box) == ["Full labels: names, details and what to do."])
    }

    @Test func pausingSaysLessWithShortLabels() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        model.settings.verbosity = .short
        let box = InterfaceDriver(model: model)
        box.press(.play)
        box.advance(by: .seconds(130))
        box.mark()
        box.press(.play)
        #expect(said(box) == ["Paused at 2 minutes 10."])
    }
}

@Suite struct VoiceLevelTests {
    @Test func theVoiceAloneHasAFloorButNeverPassesACap() {
        var policy = VolumePolicy(volume: 10, speakerCap: 100, headphonesCap: 70, nightCap: 20)
        #expect(policy.voiceAloneVolume(headphones: false, night: false) == VolumePolicy.voiceFloorVolume)
        #expect(policy.voiceAloneVolume(headphones: false, night: true) == 20) // the night cap wins
        policy.volume = 90
        #expect(policy.voiceAloneVolume(headphones: true, night: false) == 70) // the headphones cap
        #expect(policy.voiceAloneVolume(headphones: false, night: false) == 90)
        policy.speakerCap = 25
        #expect(policy.voiceAloneVolume(headphones: false, night: false) == 25) // a cap below the floor wins
    }

    @Test func theVoiceFollowsTheLevelItIsGivenAndTheCueAddsWithoutCuttingItOff() {
        func mixed(level: Float, cue: Bool) -> [Int16] {
            var mixer = SpeechMixer(sampleRate: 1000)
            mixer.speak(Array(repeating: 10_000, count: 100), level: level)
            if cue { mixer.cue(Array(repeating: 1000, count: 10), level: level) }
            var samples = [Int16](repeating: 0, count: 200)
            samples.withUnsafeMutableBufferPointer { mixer.mix(into: $0, frames: 100) }
            return samples
        }
        #expect(mixed(level: 1, cue: false)[20] == 3500) // 10,000 × 0.35
        #expect(mixed(level: 0.1, cue: false)[20] == 350)
        #expect(mixed(level: 0.1, cue: true)[2] == 450) // the cue on top, at the same level
        #expect(mixed(level: 0.1, cue: true)[40] == 350) // and the voice goes on after it
    }

    @Test func aCueAloneLeavesTheRecordingUnderItAsItWas() {
        var mixer = SpeechMixer(sampleRate: 1000)
        mixer.cue(Array(repeating: 1000, count: 10), level: 0.5)
        var samples = [Int16](repeating: 2000, count: 40)
        samples.withUnsafeMutableBufferPointer { mixer.mix(into: $0, frames: 20) }
        #expect(samples[0] == 2500) // not ducked: a cue is not a voice
        #expect(samples[30] == 2000)
    }
}
