/// Mixes a spoken label into the recording: the recording is ducked under the voice and comes back
/// gently after it, the voice plays at the listening level (`level`: the volume after its caps), and a
/// newer label cuts an older one off with a short fade rather than a click. Short cues (the seek's tick)
/// are added on top without ducking and without cutting the voice off. Pure arithmetic over interleaved
/// stereo S16 frames.
public struct SpeechMixer: Equatable, Sendable {
    /// The recording's level under the voice (linear amplitude): audible, clearly behind.
    public static let duckedGain: Float = 0.25
    /// The voice's level at full volume (linear, about -9 dBFS for espeak's peaks). The caller scales it by
    /// the same gain as the recording (`level`), so the voice sits the same margin above the recording at
    /// every volume and never goes past a cap (docs/accessibility.md, "Levels").
    public static let voiceGain: Float = 0.35
    /// A cue's level at full volume: the tick is mastered quiet (-16 dBFS peak), so it plays as made.
    public static let cueGain: Float = 1

    public let sampleRate: Int
    private var speech: [Int16] = []
    private var position = 0
    private var duck = GainStage(gain: 1)
    private var level = GainStage(gain: 1)
    private var cueSamples: [Int16] = []
    private var cuePosition = 0
    private var cueLevel: Float = 1

    public init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// Whether a label is being spoken (or fading out after a cut).
    public var isSpeaking: Bool { position < speech.count }
    /// Whether a cue is sounding.
    public var isCueing: Bool { cuePosition < cueSamples.count }
    /// Whether anything of the mixer's own is still to be heard.
    public var isSounding: Bool { isSpeaking || isCueing }

    /// Frames of speech or cue left.
    public var remainingFrames: Int { max(speech.count - position, cueSamples.count - cuePosition) }

    /// Starts speaking `mono` (at `sampleRate`) at `level` (the listening gain after the caps); an earlier
    /// label still speaking fades out quickly first.
    public mutating func speak(_ mono: [Int16], level newLevel: Float = 1) {
        let fade = sampleRate / 50 // 20 ms
        var next: [Int16] = []
        if isSpeaking {
            // Keep 20 ms of the old label, faded to silence, then the new one.
            let tail = Array(speech[position..<min(speech.count, position + fade)])
            var fadeGain = GainStage(gain: 1)
            fadeGain.ramp(to: 0, over: tail.count)
            var faded = tail
            faded.withUnsafeMutableBufferPointer { fadeGain.apply(to: $0, frames: tail.count, channels: 1) }
            next = faded
            level.ramp(to: newLevel, over: fade)
        } else {
            level.jump(to: newLevel)
        }
        speech = next + mono
        position = 0
        duck.ramp(to: Self.duckedGain, over: sampleRate / 20) // 50 ms down
    }

    /// The listening gain changed (a volume turned, a cap applied, the recording started under the voice):
    /// the voice follows over 50 ms.
    public mutating func setLevel(_ newLevel: Float) {
        level.ramp(to: newLevel, over: sampleRate / 20)
        cueLevel = newLevel
    }

    /// Plays a short cue (`mono`, at `sampleRate`) on top of everything, at `level`; a cue still sounding is
    /// replaced (cues are shorter than the interval between them).
    public mutating func cue(_ mono: [Int16], level newLevel: Float) {
        cueSamples = mono
        cuePosition = 0
        cueLevel = newLevel
    }

    /// Stops speaking at once (with the 20 ms fade).
    public mutating func cancel() {
        guard isSpeaking else { return }
        speak([], level: level.target)
    }

    /// Steps back `frames` frames: the output took back frames the mixer had made and not yet played (a
    /// sink rewind while nothing but the mixer plays), so they are made again.
    public mutating func stepBack(_ frames: Int) {
        position = max(0, position - frames)
        cuePosition = max(0, cuePosition - frames)
    }

    /// Ducks `frames` frames of the recording in place and adds the voice and the cue.
    public mutating func mix(into samples: UnsafeMutableBufferPointer<Int16>, frames: Int) {
        var index = 0
        for _ in 0..<frames {
            var added: Float = 0
            let voiceLevel = level.nextFrameGain()
            if position < speech.count {
                added = Float(speech[position]) * Self.voiceGain * voiceLevel
                position += 1
                if position == speech.count { duck.ramp(to: 1, over: sampleRate / 5) } // 200 ms back up
            }
            if cuePosition < cueSamples.count {
                added += Float(cueSamples[cuePosition]) * Self.cueGain * cueLevel
                cuePosition += 1
            }
            let duckGain = duck.nextFrameGain()
            for _ in 0..<2 {
                let mixed = Float(samples[index]) * duckGain + added
                samples[index] = Int16(roundingHalfAwayClamped: mixed)
                index += 1
            }
        }
    }

    /// Whether the duck is still returning to full level after a label (the engine keeps mixing then).
    public var isRecovering: Bool { duck.isRamping || duck.current < 1 }
}
