import DeviceFakes
import Devices
import EspeakSpeech
import EventLoop
import StillroomCore
@testable import StillroomDaemon
import TestSupport
import Testing

/// Serialized with the other speech users: eSpeak NG is one global state per process.
@Suite(.serialized) struct SpeechMixingTests {
    let sweep = RepositoryPaths.fixture("audio/sweep-20s-44k-mono.mp3")

    func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    @Test func aLabelIsMixedOverTheDuckedRecordingAndTheRecordingComesBack() throws {
        let loop = try EventLoop()
        let sink = PacedSink(loop: loop, speed: 4, keepsAudio: true)
        let harness = EngineHarness(sink: sink, loop: loop, path: sweep)
        harness.send(.play(sessionID: "long", title: "Long"))
        try harness.run(untilHeard: 44_100) // one second in
        let voice = try EspeakSynthesizer.shared()
        let label = try voice.synthesize("Paused at one minute")
        let speechStart = Int(sink.playedFrames)
        harness.engine.speak(label, rate: voice.sampleRate)
        let speechFrames = label.count * 2 // 22,050 Hz to 44,100 Hz
        try harness.run(untilHeard: Int64(speechStart + speechFrames + 44_100))
        let heard = sink.heardAudio
        let decoded = try decodeAll(sweep)
        // During the label the signal is not the recording: the voice is there.
        let window = (speechStart + 4410)..<(speechStart + speechFrames - 4410)
        var difference: [Int16] = []
        for frame in window { difference.append(heard[frame * 2] &- decoded[frame * 2]) }
        #expect(rms(difference[...]) > 500)
        // The recording under the voice is ducked: the mix is quieter than the voice plus the full sweep.
        #expect(rms(heard[(window.lowerBound * 2)..<(window.upperBound * 2)]) < rms(decoded[(window.lowerBound * 2)..<(window.upperBound * 2)]) + 3000)
        // Half a second after the label (the duck recovers in 200 ms), the recording is back as decoded.
        let after = (speechStart + speechFrames + 22_050)
        let afterSlice = (after * 2)..<((after + 4410) * 2)
        #expect(firstDifference(heard[afterSlice], decoded[afterSlice], tolerance: 2) == nil)
    }

    @Test func withNothingPlayingTheLabelPlaysAlone() throws {
        let loop = try EventLoop()
        let sink = PacedSink(loop: loop, speed: 4, keepsAudio: true)
        let engine = PlaybackEngine(sink: sink, logger: Logger(threshold: .warning), lengths: { _ in nil }, rememberLength: { _, _ in })
        let voice = try EspeakSynthesizer.shared()
        engine.speak(try voice.synthesize("Stillroom"), rate: voice.sampleRate)
        #expect(engine.isSpeaking)
        while engine.isSpeaking || sink.queuedFrames > 0 { try loop.runOnce() }
        #expect(rms(sink.heardAudio[...]) > 300)
    }
}
