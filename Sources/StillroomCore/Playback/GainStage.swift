/// Volume, caps and fades applied to interleaved S16 frames before they reach the sink.
///
/// The gain is the volume's curve, limited by the cap of the current output (speaker or headphones) and,
/// at night, by the night cap. Changes never jump: every change of target gain is a linear ramp over
/// `rampFrames`, so pause, resume and seek are free of clicks. Pure arithmetic; no I/O.
public struct GainStage: Equatable, Sendable {
    /// The gain being applied now (0...1, linear amplitude).
    public private(set) var current: Float
    /// The gain the ramp is heading for.
    public private(set) var target: Float
    private var step: Float = 0
    private var framesLeft = 0

    public init(gain: Float = 1) {
        current = gain
        target = gain
    }

    /// Heads for `gain` over `frames` frames (at once when `frames` is 0).
    public mutating func ramp(to gain: Float, over frames: Int) {
        target = max(0, min(1, gain))
        if frames <= 0 {
            current = target
            framesLeft = 0
            step = 0
        } else {
            framesLeft = frames
            step = (target - current) / Float(frames)
        }
    }

    /// Sets the gain at once (for the first frame after silence, which a fade-in then raises).
    public mutating func jump(to gain: Float) { ramp(to: gain, over: 0) }

    /// Whether a ramp is in progress.
    public var isRamping: Bool { framesLeft > 0 }

    /// Moves the ramp on by one frame and returns the gain for that frame.
    public mutating func nextFrameGain() -> Float {
        if framesLeft > 0 {
            current += step
            framesLeft -= 1
            if framesLeft == 0 { current = target }
        }
        return current
    }

    /// Scales `frames` frames of `channels` interleaved samples in place.
    public mutating func apply(to samples: UnsafeMutableBufferPointer<Int16>, frames: Int, channels: Int = 2) {
        if framesLeft == 0 {
            // No ramp: one gain for the whole block, in one flat loop (most periods of a recording).
            guard current != 1 else { return }
            let gain = current
            for index in 0..<(frames * channels) { samples[index] = Self.scale(samples[index], by: gain) }
            return
        }
        var index = 0
        for _ in 0..<frames {
            if nextFrameGain() == 1 {
                index += channels
                continue
            }
            for _ in 0..<channels {
                samples[index] = Self.scale(samples[index], by: current)
                index += 1
            }
        }
    }

    /// `sample × gain` as a Float, rounded half away from zero and clamped to 16 bits (what
    /// `Float.rounded()` gives; `Int16(roundingHalfAwayClamped:)` says how, without libm).
    @inline(__always)
    static func scale(_ sample: Int16, by gain: Float) -> Int16 {
        Int16(roundingHalfAwayClamped: Float(sample) * gain)
    }
}

/// How loud, in the listener's terms: a 0–100 volume, limited by caps that protect ears at night and
/// on headphones. The curve is in decibels so each knob step sounds like the same change.
public struct VolumePolicy: Equatable, Sendable, Codable {
    /// The owner's volume, 0...100.
    public var volume: Int
    /// The highest volume allowed on the speaker, and on headphones (0...100).
    public var speakerCap: Int
    public var headphonesCap: Int
    /// The highest volume allowed while night mode is on.
    public var nightCap: Int

    public init(volume: Int = 60, speakerCap: Int = 100, headphonesCap: Int = 70, nightCap: Int = 45) {
        self.volume = volume
        self.speakerCap = speakerCap
        self.headphonesCap = headphonesCap
        self.nightCap = nightCap
    }

    /// The volume actually used on `output` with night mode `night`.
    public func effectiveVolume(headphones: Bool, night: Bool) -> Int {
        var level = min(volume, headphones ? headphonesCap : speakerCap)
        if night { level = min(level, nightCap) }
        return max(0, min(100, level))
    }

    /// The lowest volume the voice and the cues fall to when no recording plays under them, so a label stays
    /// understandable with the volume turned right down; never above a cap.
    public static let voiceFloorVolume = 30

    /// The highest volume the caps allow on `output` with night mode `night`.
    public func capLimit(headphones: Bool, night: Bool) -> Int {
        var level = headphones ? headphonesCap : speakerCap
        if night { level = min(level, nightCap) }
        return max(0, min(100, level))
    }

    /// The volume of the voice, the chime and the cues when nothing plays under them: the listening
    /// volume, raised to `voiceFloorVolume` if it is lower, and never above the caps. Over a recording they
    /// play at the recording's own volume (`effectiveVolume`).
    public func voiceAloneVolume(headphones: Bool, night: Bool) -> Int {
        min(max(effectiveVolume(headphones: headphones, night: night), Self.voiceFloorVolume), capLimit(headphones: headphones, night: night))
    }

    /// Linear gain for a 0...100 volume: 0 is silence, 100 is unity, and the steps between span 50 dB.
    public static func gain(forVolume volume: Int) -> Float {
        guard volume > 0 else { return 0 }
        let decibels = Float(min(100, volume) - 100) * 0.5
        return Float.pow10(decibels / 20)
    }
}

extension Float {
    /// 10^x, without Glibc's powf: the pure core imports no C. The exponential series is summed for a
    /// positive argument (all terms positive, no cancellation) and inverted for a negative one.
    static func pow10(_ x: Float) -> Float {
        let y = Double(x) * 2.302585092994046
        let magnitude = abs(y)
        var sum = 1.0
        var term = 1.0
        var n = 1.0
        while term > 1e-12 * sum {
            term *= magnitude / n
            sum += term
            n += 1
        }
        return Float(y < 0 ? 1 / sum : sum)
    }
}
