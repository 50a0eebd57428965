import ControlProtocol
import Glibc
import StillroomCore
import TestSupport
import Testing

/// Using the box by ear, as the listener hears it: the daemon on virtual time (`DrivenJourney`) playing through
/// ALSA's `file` plugin (every sample played kept), the bundled content, keys on its terminal, the real CLI.
/// What was heard is measured on the capture.
@Suite(.serialized) struct ByEarCaptureTests {
    static let rate = 44_100
    static let session = "steady-breath"

    func spoken(_ status: StatusReport) -> [String] { status.observed.spoken }

    /// Seeking by ear to a chosen minute without looking: spoken labels on, one click of the knob at a time,
    /// listening to what the box says after each, until it says the second minute; then what is heard is
    /// the recording there.
    @Test func seekingByEarToTheSecondMinute() throws {
        let journey = DrivenJourney()
        let recording = try Audio.decode(RepositoryPaths.content + "/sessions/\(Self.session)/audio.mp3")
        journey.start()
        for key in ["volume", "speaker-cap", "headphones-cap", "night-cap"] { journey.ctl("settings", "set", key, "100") }
        journey.ctl("settings", "set", "spoken-labels", "on")
        journey.keys(" ")
        journey.waitFor("playing, two seconds in") { $0.state == .playing && $0.position >= 2 }
        var heard = ""
        var clicks = 0
        var ticks = 0
        while !heard.contains("2 minutes"), clicks < 30 {
            let before = journey.status()
            let events = before.observed.inputEvents
            let labels = before.observed.spokenLabels
            let cues = before.observed.cuesPlayed
            journey.keys("\u{1B}[C") // one click clockwise
            // Listen: the click handled, and something said after it (the place, or "Moved to" when it rests).
            let after = journey.waitFor("the click heard") {
                $0.observed.inputEvents > events && $0.observed.spokenLabels > labels
                    && !$0.observed.labelPending
            }
            ticks += after.observed.cuesPlayed - cues
            heard = spoken(after).last ?? ""
            clicks += 1
        }
        #expect(heard.contains("2 minutes"), "never heard the second minute after \(clicks) clicks; last heard \"\(heard)\"")
        #expect(ticks == clicks, "\(ticks) ticks for \(clicks) clicks")
        // Stop turning: the seek commits where the voice said.
        let moved = journey.waitFor("the seek commits in the second minute") {
            ($0.lastCheckpoint?.position ?? 0) >= 120 && !$0.observed.labelPending
                && self.spoken($0).contains { $0.hasPrefix("Moved to 2 minutes") }
        }
        let target = moved.lastCheckpoint?.position ?? 0
        #expect(target >= 120 && target < 180, "moved to \(target) s")
        // Once the last label is over (the duck recovered), what plays is the recording in the second minute.
        journey.waitFor("six seconds heard after the seek") { $0.position >= target + 6 }
        let captured = Audio.readCapture(journey.capture)
        _ = journey.finish()
        let probe = captured.count / 2 - 2 * Self.rate
        let found = Audio.locate(captured, at: probe, in: recording, within: Int(target * Double(Self.rate))..<Int((target + 30) * Double(Self.rate)))
        #expect(found != nil, "the end of the capture is not the recording after \(target) s")
        if let found {
            let seconds = Double(found) / Double(Self.rate)
            print("seeking by ear: \(clicks) clicks, \(ticks) ticks, moved to \(target) s; the capture's end is the recording at \(seconds) s")
            #expect(seconds >= 120 && seconds < 180)
        }
    }

    /// One run: the settings, the recording from its start, a label said four seconds in; returns the
    /// capture and the label's first frame.
    func labelOverTheRecording(_ settings: [(String, String)]) -> (captured: [Int16], gain: Double) {
        let journey = DrivenJourney()
        journey.start()
        for (key, value) in settings { journey.ctl("settings", "set", key, value) }
        let effective = journey.status().live?.effectiveVolume ?? -1
        journey.ctl("play", Self.session)
        journey.waitFor("four seconds heard") { $0.position >= 4 }
        let before = journey.status().observed.spokenLabels
        journey.ctl("say", "Paused at two minutes ten, three minutes left.")
        journey.waitFor("the label spoken") { $0.observed.spokenLabels > before }
        let saidAt = journey.status().position
        journey.waitFor("six seconds more") { $0.position >= saidAt + 6 }
        let captured = Audio.readCapture(journey.capture)
        _ = journey.finish()
        return (captured, Double(VolumePolicy.gain(forVolume: effective)))
    }

    /// The recording's gain in `captured` over `frames` (least squares: the voice is unrelated to it).
    static func gain(of recording: [Int16], in captured: [Int16], over frames: Range<Int>) -> Double {
        var dot = 0.0, energy = 0.0
        for frame in frames {
            let mixed = Double(captured[frame * 2]), original = Double(recording[frame * 2])
            dot += mixed * original
            energy += original * original
        }
        return energy > 0 ? dot / energy : 0
    }

    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

    /// The documented margin (docs/accessibility.md, "Levels"): a label's RMS is never more than this above
    /// the recording under it (ducked, at the same volume and caps; the recording's RMS over its whole
    /// length stands for its level), and never above the recording's own level, unducked.
    static let marginDecibels = 6.0

    @Test func labelsSitTheSameMarginOverTheRecordingAtEveryVolumeAndCap() throws {
        let recording = try Audio.decode(RepositoryPaths.content + "/sessions/\(Self.session)/audio.mp3")
        let programme = Audio.rms(recording[...]) // the recording's RMS over its whole length, at unity
        let looks: [(String, [(String, String)])] = [
            ("unity", [("night-mode", "off"), ("volume", "100"), ("speaker-cap", "100"), ("headphones-cap", "100")]),
            ("headphones cap 50", [("night-mode", "off"), ("volume", "100"), ("speaker-cap", "100"), ("headphones-cap", "50")]),
            ("night cap 30", [("night-mode", "on"), ("volume", "80"), ("headphones-cap", "100"), ("night-cap", "30")]),
        ]
        var voiceAtUnity: Double?
        for (name, settings) in looks {
            let (captured, expected) = labelOverTheRecording(settings)
            let frames = min(captured.count, recording.count) / 2
            let fadeIn = 2646
            // The recording before the label is exactly the recording at the capped gain.
            let quiet = (fadeIn + Self.rate / 10)..<(4 * Self.rate - Self.rate / 2)
            let recordingGain = Self.gain(of: recording, in: captured, over: quiet)
            #expect(abs(recordingGain - expected) <= 0.02 * expected, "\(name): the recording played at \(recordingGain), the caps allow \(expected)")
            // Where the voice comes in and goes.
            func differs(_ frame: Int) -> Bool {
                abs(Double(captured[frame * 2]) - expected * Double(recording[frame * 2])) > 3
            }
            guard let start = (4 * Self.rate - Self.rate / 2..<frames).first(where: differs),
                  let end = (start..<frames).last(where: differs), end - start > Self.rate / 2 else {
                Issue.record("\(name): no label heard over the recording")
                continue
            }
            let middle = (start + Self.rate / 10)..<(end - Self.rate / 4)
            let ducked = Self.gain(of: recording, in: captured, over: middle)
            var voice: [Int16] = []
            for frame in middle {
                voice.append(Int16(clamping: Int((Double(captured[frame * 2]) - ducked * Double(recording[frame * 2])).rounded())))
            }
            let voiceRMS = Audio.rms(voice[...])
            let overOwnLevel = Self.decibels(voiceRMS / (programme * expected))
            let margin = Self.decibels(voiceRMS / (programme * ducked))
            print("levels, \(name): recording at \(recordingGain) (caps allow \(expected)), under the voice \(ducked / expected) of it; "
                  + "voice RMS \(voiceRMS), recording RMS \(programme * expected): the voice \(margin) dB over the recording under it, "
                  + "\(overOwnLevel) dB against its own level")
            #expect(margin <= Self.marginDecibels, "\(name): the voice is \(margin) dB over the recording under it")
            #expect(overOwnLevel <= 0, "\(name): the voice is \(overOwnLevel) dB over the recording's own level")
            #expect(ducked / expected > 0.2 && ducked / expected < 0.3, "\(name): under the voice the recording kept \(ducked / expected)")
            // The voice follows the caps: at a lower cap it is quieter by exactly the cap's gain.
            if let unity = voiceAtUnity {
                let change = Self.decibels(voiceRMS / unity) - Self.decibels(expected)
                #expect(abs(change) <= 1, "\(name): the voice moved \(change) dB more than the recording")
            } else {
                voiceAtUnity = voiceRMS
            }
        }
    }

    /// With nothing playing, the voice and the chime play at the volume after the caps (with a floor at
    /// volume 30), never above a cap.
    @Test func theVoiceAloneAndTheChimeObeyTheCaps() throws {
        let journey = DrivenJourney()
        journey.start()
        for (key, value) in [("night-mode", "off"), ("volume", "100"), ("speaker-cap", "100"), ("headphones-cap", "100"), ("night-cap", "100")] {
            journey.ctl("settings", "set", key, value)
        }
        let bytes = { Files.read(journey.capture).count }
        func sayAndWait(_ text: String) -> Int {
            let before = bytes()
            let labels = journey.status().observed.spokenLabels
            journey.ctl("say", text)
            // The output has drained the whole label (it plays alone): all of it is in the capture.
            journey.waitFor("the label played out") { $0.observed.spokenLabels > labels && $0.observed.outputIdle }
            #expect(bytes() > before)
            return bytes()
        }
        let first = sayAndWait("Stillroom, spoken labels.")
        journey.ctl("settings", "set", "headphones-cap", "40")
        let second = sayAndWait("Stillroom, spoken labels.")
        // The chime, at the start of a breathing timer, with the same cap.
        journey.ctl("timer", "start", "--minutes", "1")
        journey.waitFor("the chime played out") { _ in bytes() > second && journey.status().observed.outputIdle }
        let captured = Audio.readCapture(journey.capture)
        _ = journey.finish()
        let unity = Audio.rms(captured[0..<(first / 2)])
        let capped = Audio.rms(captured[(first / 2)..<(second / 2)])
        let chime = try Audio.decode(RepositoryPaths.content + "/sounds/chime.mp3")
        let chimeCaptured = Audio.rms(captured[(second / 2)..<min(captured.count, second / 2 + chime.count)])
        let expected = Self.decibels(Double(VolumePolicy.gain(forVolume: 40)))
        let chimeExpected = Audio.rms(chime[...]) * Double(SpeechMixer.voiceGain) * Double(VolumePolicy.gain(forVolume: 40))
        print("alone: voice RMS \(unity) at no cap, \(capped) under a cap of 40 (\(Self.decibels(capped / unity)) dB, the cap \(expected) dB); "
              + "chime RMS \(chimeCaptured), \(chimeExpected) expected at the cap")
        #expect(abs(Self.decibels(capped / unity) - expected) <= 1)
        #expect(abs(Self.decibels(chimeCaptured / chimeExpected)) <= 1.5)
    }
}
