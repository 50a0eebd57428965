import SimulatorDevices
import Glibc
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
        let virtual = try VirtualLoop() // the box's time, not the machine's: nothing measured rides on load
        let loop = virtual.loop
        let sink = PacedSink(loop: loop, speed: 4, keepsAudio: true)
        let harness = EngineHarness(sink: sink, loop: loop, path: sweep, virtual: virtual)
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

    /// The seek's tick (Content/sounds/tick.mp3) over a playing recording: added as it is, at the output's
    /// gain, within what the sink cannot give back; the recording is not ducked for it, before or after.
    @Test func aTickIsAddedOverTheRecordingWithoutDuckingIt() throws {
        let virtual = try VirtualLoop() // the box's time, not the machine's: nothing measured rides on load
        let loop = virtual.loop
        let sink = PacedSink(loop: loop, speed: 4, keepsAudio: true)
        let harness = EngineHarness(sink: sink, loop: loop, path: sweep, virtual: virtual)
        harness.send(.play(sessionID: "long", title: "Long"))
        try harness.run(untilHeard: 44_100) // one second in
        let tickStereo = try decodeAll(RepositoryPaths.content + "/sounds/tick.mp3")
        let tick = stride(from: 0, to: tickStereo.count, by: 2).map { tickStereo[$0] }
        let asked = Int(sink.playedFrames)
        harness.engine.cue(tick, rate: 44_100)
        try harness.run(untilHeard: Int64(asked + 44_100))
        let heard = sink.heardAudio
        let decoded = try decodeAll(sweep)
        // What the tick changed: the heard output minus the recording, frame by frame.
        let window = (asked - 4410)..<(asked + 22_050)
        // (Beyond 2: the recording decoded again after the buffer is taken back may differ by a rounding.)
        let changed = window.filter { abs(Int(heard[$0 * 2]) - Int(decoded[$0 * 2])) > 2 || abs(Int(heard[$0 * 2 + 1]) - Int(decoded[$0 * 2 + 1])) > 2 }
        let first = try #require(changed.first, "the tick changed nothing")
        let last = changed.last!
        #expect(first >= asked, "the tick was heard before it was asked for")
        #expect(first - asked < 4410, "the tick came \(first - asked) frames after it was asked for")
        #expect(last - first < tick.count, "the output changed for \(last - first) frames; the tick is \(tick.count)")
        // The change is the tick itself (at unity gain), on both channels: nothing was ducked.
        var changeEnergy = 0.0
        for frame in first...last { changeEnergy += pow(Double(heard[frame * 2]) - Double(decoded[frame * 2]), 2) }
        let tickEnergy = tick.reduce(0.0) { $0 + Double($1) * Double($1) }
        #expect(abs(changeEnergy / tickEnergy - 1) < 0.05, "the change has \(changeEnergy / tickEnergy) of the tick's energy")
    }

    @Test func withNothingPlayingTheLabelPlaysAlone() throws {
        let virtual = try VirtualLoop() // the box's time, not the machine's: nothing measured rides on load
        let loop = virtual.loop
        let sink = PacedSink(loop: loop, speed: 4, keepsAudio: true)
        let engine = PlaybackEngine(sink: sink, logger: Logger(threshold: .warning), lengths: { _ in nil }, rememberLength: { _, _ in })
        let voice = try EspeakSynthesizer.shared()
        engine.speak(try voice.synthesize("Stillroom"), rate: voice.sampleRate)
        #expect(engine.isSpeaking)
        let done = try virtual.advance(until: { !engine.isSpeaking && sink.queuedFrames == 0 }, within: .seconds(60))
        #expect(done, "the label never finished")
        #expect(rms(sink.heardAudio[...]) > 300)
    }
}
