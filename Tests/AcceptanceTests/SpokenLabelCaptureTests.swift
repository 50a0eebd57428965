import Glibc
import StillroomCore
import TestSupport
import Testing

/// A spoken label over a playing recording, as the listener hears it: the daemon on virtual time
/// (`DrivenJourney`), the bundled session, ALSA's `file` plugin capturing every sample played, the label
/// asked for with the real CLI.
@Suite struct SpokenLabelCaptureTests {
    @Test func theLabelIsHeardOverTheDuckedRecordingWhichThenComesBackUnchanged() throws {
        let journey = DrivenJourney()
        let session = "steady-breath"
        let recording = try Audio.decode(RepositoryPaths.content + "/sessions/\(session)/audio.mp3")
        journey.start()
        // Unity gain: away from the label, the capture is the decoded recording sample for sample.
        for key in ["volume", "speaker-cap", "headphones-cap", "night-cap"] { journey.ctl("settings", "set", key, "100") }
        journey.ctl("play", session)
        journey.waitFor("three seconds heard") { $0.position >= 3 }
        let before = journey.status().observed.spokenLabels
        #expect(journey.ctl("say", "Paused at two minutes ten, three minutes left.").status == 0)
        journey.waitFor("the label spoken") { $0.observed.spokenLabels > before }
        let saidAt = journey.status().position
        journey.waitFor("six seconds more") { $0.position >= saidAt + 6 }
        let captured = Audio.readCapture(journey.capture)
        _ = journey.finish()

        // Where the capture first leaves the recording (after the 60 ms fade-in) is where the voice came in;
        // where it last differs is where the duck had fully recovered.
        let frames = min(captured.count, recording.count) / 2
        let fadeIn = 2646
        func differs(_ frame: Int) -> Bool {
            abs(Int(captured[frame * 2]) - Int(recording[frame * 2])) > 2 || abs(Int(captured[frame * 2 + 1]) - Int(recording[frame * 2 + 1])) > 2
        }
        guard let start = (fadeIn..<frames).first(where: differs), let end = (start..<frames).last(where: differs) else {
            Issue.record("the capture never differs from the recording: no label was heard")
            return
        }
        let rate = 44_100
        #expect(start >= 3 * rate - rate / 2, "the voice came in at \(Double(start) / Double(rate)) s, before it was asked for")
        let length = end - start
        #expect(length > rate / 2 && length < 8 * rate, "the label lasted \(Double(length) / Double(rate)) s")
        // After the label and the 200 ms recovery, the rest of the capture is the recording, unchanged.
        #expect(frames - end > 2 * rate, "the recording never came back unchanged")

        // In the middle of the label: a voice is there, and the recording under it is ducked. The voice
        // and the recording are unrelated, so the least-squares gain of the recording in the mix is the
        // duck's gain (a quarter), not 1.
        let middle = (start + rate / 10)..<(end - rate / 4)
        var voice: [Int16] = []
        var dot = 0.0, energy = 0.0
        for frame in middle {
            let mixed = Double(captured[frame * 2]), original = Double(recording[frame * 2])
            voice.append(Int16(clamping: Int(mixed - original)))
            dot += mixed * original
            energy += original * original
        }
        let gain = energy > 0 ? dot / energy : 1
        print("spoken label over the recording: in at \(Double(start) / Double(rate)) s for \(Double(length) / Double(rate)) s, "
              + "voice RMS \(Int(Audio.rms(voice[...]))), recording kept at \(gain) under it")
        #expect(Audio.rms(voice[...]) > 300, "no voice energy over the recording")
        #expect(gain > 0.05 && gain < 0.5, "the recording under the voice kept \(gain) of its level")
    }
}
