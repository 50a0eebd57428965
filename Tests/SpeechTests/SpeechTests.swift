import EspeakSpeech
import Resampling
import Testing

/// Serialized: eSpeak NG has one global state per process.
@Suite(.serialized) struct SpeechTests {
    @Test func aLabelBecomesSpeechWithEnergyAndResamplesToTheOutputRate() throws {
        let voice = try EspeakSynthesizer.shared()
        #expect(voice.sampleRate == 22_050)
        let samples = try voice.synthesize("Morning breath, breathe, five minutes, on this box")
        let seconds = Double(samples.count) / Double(voice.sampleRate)
        #expect(seconds > 1.5 && seconds < 6) // a short phrase, not silence, not a hang
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 3000)
        let resampled = try Resampler.convert(samples, from: 22_050, to: 44_100)
        #expect(abs(resampled.count - samples.count * 2) <= 64)
        let energyBefore = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        let energyAfter = resampled.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(resampled.count)
        #expect(abs(energyAfter / energyBefore - 1) < 0.1) // the same loudness after conversion
    }

    @Test func emptyTextIsSilenceNotAnError() throws {
        let voice = try EspeakSynthesizer.shared()
        #expect(try voice.synthesize("").count < 2000)
    }
}
