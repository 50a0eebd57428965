/// Mixes a spoken label into the recording: the recording is ducked under the voice and comes back
/// gently after it, the voice plays at a fixed comfortable level, and a newer label cuts an older one off
/// with a short fade rather than a click. Pure arithmetic over interleaved stereo S16 frames.
public struct SpeechMixer: Equatable, Sendable {
    /// The recording's level under the voice (linear amplitude): audible, clearly behind.
    public static let duckedGain: Float = 0.25
    /// The voice's level (linear, about -9 dBFS for espeak's peaks): fixed, not tied to the volume knob,
    /// so labels stay understandable when the volume is low.
    public static let voiceGain: Float = 0.35

    public let sampleRate: Int
    private var speech: [Int16] = []
    private var position = 0
    private var duck = GainStage(gain: 1)

    public init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// Whether a label is being spoken (or fading out after a cut).
    public var isSpeaking: Bool { position < speech.count }

    /// Frames of speech left.
    public var remainingFrames: Int { speech.count - position }

    /// Starts speaking `mono` (at `sampleRate`); an earlier label still speaking fades out quickly first.
    public mutating func speak(_ mono: [Int16]) {
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
        }
        speech = next + mono
        position = 0
        duck.ramp(to: Self.duckedGain, over: sampleRate / 20) // 50 ms down
    }

    /// Stops speaking at once (with the 20 ms fade).
    public mutating func cancel() {
        guard isSpeaking else { return }
        speak([])
    }

    /// Ducks `frames` frames of the recording in place and adds the voice.
    public mutating func mix(into samples: UnsafeMutableBufferPointer<Int16>, frames: Int) {
        var index = 0
        for _ in 0..<frames {
            let voiceSample: Float
            if position < speech.count {
                voiceSample = Float(speech[position]) * Self.voiceGain
                position += 1
                if position == speech.count { duck.ramp(to: 1, over: sampleRate / 5) } // 200 ms back up
            } else {
                voiceSample = 0
            }
            let duckGain = duck.nextFrameGain()
            for _ in 0..<2 {
                let mixed = Float(samples[index]) * duckGain + voiceSample
                samples[index] = Int16(max(-32768, min(32767, mixed.rounded())))
                index += 1
            }
        }
    }

    /// Whether the duck is still returning to full level after a label (the engine keeps mixing then).
    public var isRecovering: Bool { duck.isRamping || duck.current < 1 }
}
