import StillroomCore
import Testing

/// The box's voice (`SpeechQueue`, Box+Voice.swift), in milliseconds: the label's settle, speech held
/// until what is said ends, a transcript read a line at a time, and the spoken-labels setting.
@Suite struct SpeechQueueTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    func at(_ ms: Int64) -> MonotonicInstant { start + .milliseconds(ms) }

    @Test func aBurstOfLabelsSaysOnlyTheLastOneOnceItSettles() {
        var voice = SpeechQueue()
        #expect(voice.label("One", now: at(0)) == [.arm(.labelSettled, at: at(180))])
        #expect(voice.label("Two", now: at(100)) == [.arm(.labelSettled, at: at(280))])
        #expect(voice.fired(.labelSettled, now: at(280)) == [.say("Two")])
        #expect(voice.fired(.labelSettled, now: at(460)) == [], "said once")
        #expect(voice.saidCount == 1 && voice.recentlySaid == ["Two"])
    }

    @Test func heldSpeechWaitsForWhatIsSaidAndASettlingLabelAndIsSaidAsOne() {
        var voice = SpeechQueue()
        _ = voice.label("Library", now: at(0))
        _ = voice.fired(.labelSettled, now: at(180))
        #expect(voice.spoke(seconds: 1.5, now: at(180)) == [])
        // Held while "Library" is said (until 1,680 ms), then a breath.
        #expect(voice.hold("Notice: the card is full.", now: at(500)) == [.arm(.heldSpeech, at: at(1980))])
        _ = voice.hold("Notice: no network.", now: at(600))
        // A label came meanwhile: it goes first, the held speech after it.
        _ = voice.label("Settings", now: at(1900))
        #expect(voice.fired(.heldSpeech, now: at(1980)) == [.arm(.heldSpeech, at: at(1980 + 180 + 300))])
        #expect(voice.fired(.labelSettled, now: at(2080)) == [.say("Settings")])
        _ = voice.spoke(seconds: 0.2, now: at(2080))
        #expect(voice.fired(.heldSpeech, now: at(2460)) == [.say("Notice: the card is full. Notice: no network.")])
        #expect(!voice.isWaiting)
    }

    @Test func aTranscriptIsReadALineAtATimeAndAControlStopsIt() {
        var voice = SpeechQueue()
        #expect(voice.read(["In for four.", "Out for six.", "Rest."], now: at(0)) == [.say("In for four.")])
        #expect(voice.isReadingAloud)
        // The next line a breath after this one ends, however long it took to say.
        #expect(voice.spoke(seconds: 2, now: at(0)) == [.arm(.nextLine, at: at(2400))])
        #expect(voice.fired(.nextLine, now: at(2400)) == [.say("Out for six.")])
        _ = voice.spoke(seconds: 1, now: at(2400))
        #expect(voice.stopReading() == [.cancel(.nextLine)])
        #expect(!voice.isReadingAloud)
        #expect(voice.fired(.nextLine, now: at(3800)) == [], "a stop is final")
        // A line that could not be said still moves the reading on.
        _ = voice.read(["A.", "B."], now: at(5000))
        #expect(voice.spoke(seconds: 0, now: at(5000)) == [.arm(.nextLine, at: at(5400))])
    }

    @Test func theLastFortyThingsSaidAreKeptWordForWord() {
        var voice = SpeechQueue()
        for index in 0..<50 {
            _ = voice.label("Label \(index)", now: at(Int64(index) * 1000))
            _ = voice.fired(.labelSettled, now: at(Int64(index) * 1000 + 180))
        }
        #expect(voice.saidCount == 50)
        #expect(voice.recentlySaid.count == SpeechQueue.recentKept)
        #expect(voice.recentlySaid.first == "Label 10" && voice.recentlySaid.last == "Label 49")
    }

    /// In the box: labels only with spoken labels on, unless asked for with them off; held speech only with
    /// them on; a transcript from the model's, from a cue it has.
    @Test func theBoxSpeaksByTheSettingAndReadsTheModelsTranscript() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = false
        model.transcript = InterfaceSamples.transcript
        var box = Box(model: model)
        #expect(box.handle(.speech(.label("Library", always: false)), now: at(0), wall: 0).isEmpty)
        #expect(box.handle(.speech(.afterCurrent("Notice")), now: at(0), wall: 0).isEmpty)
        #expect(box.handle(.speech(.label("Key describer on.", always: true)), now: at(0), wall: 0)
            == [.arm(.speech(.labelSettled), at: .monotonic(at(180)))])
        #expect(box.handle(.timer(.speech(.labelSettled)), now: at(180), wall: 0) == [.say("Key describer on.")])
        let cues = InterfaceSamples.transcript.cues
        #expect(box.handle(.speech(.readTranscript(fromCue: cues.count)), now: at(200), wall: 0).isEmpty)
        #expect(box.handle(.speech(.readTranscript(fromCue: cues.count - 1)), now: at(200), wall: 0) == [.say(cues.last!.plainText)])
        model.settings.spokenLabels = true
        var on = Box(model: model)
        #expect(on.handle(.speech(.afterCurrent("Notice")), now: at(0), wall: 0) == [.arm(.speech(.heldSpeech), at: .monotonic(at(300)))])
    }
}
