import StillroomCore
import Testing

@Suite struct GainStageTests {
    func constantSignal(frames: Int, value: Int16 = 10_000) -> [Int16] { Array(repeating: value, count: frames * 2) }

    @Test func aFadeOutIsAMonotoneRampToSilenceWithNoJump() {
        var stage = GainStage(gain: 1)
        var samples = constantSignal(frames: 1000)
        stage.ramp(to: 0, over: 800)
        samples.withUnsafeMutableBufferPointer { stage.apply(to: $0, frames: 1000) }
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        #expect(left[799] == 0)
        #expect(left[999] == 0)
        var largestStep: Int16 = 0
        for index in 1..<left.count {
            #expect(left[index] <= left[index - 1])
            largestStep = max(largestStep, left[index - 1] - left[index])
        }
        // 10,000 over 800 frames: about 12.5 per frame; a click would be a step of thousands.
        #expect(largestStep <= 13)
        #expect(samples[0] == samples[1]) // both channels scaled alike
    }

    @Test func unityGainLeavesSamplesUntouched() {
        var stage = GainStage(gain: 1)
        var samples: [Int16] = [1, -1, 32767, -32768]
        samples.withUnsafeMutableBufferPointer { stage.apply(to: $0, frames: 2) }
        #expect(samples == [1, -1, 32767, -32768])
    }

    /// The flat loop and the rounding without libm give every sample exactly what `Float.rounded()` gave,
    /// at every volume step and at gains that land products on halves.
    @Test func scalingMatchesRoundingHalfAwayFromZeroForEverySample() {
        let gains = (0...100).map(VolumePolicy.gain(forVolume:)) + [0.5, 0.25, 0.75, 1.0 / 3, 0.999_999_9, Float(0.5).nextDown, Float(0.5).nextUp, Float(1).nextDown, 1e-7, 0]
        for gain in gains {
            var stage = GainStage(gain: gain)
            var samples = (Int32(Int16.min)...Int32(Int16.max)).map { Int16($0) }
            samples.withUnsafeMutableBufferPointer { stage.apply(to: $0, frames: $0.count / 2) }
            for (index, scaled) in samples.enumerated() {
                let expected = Int16(max(-32768, min(32767, (Float(Int32(Int16.min) + Int32(index)) * gain).rounded())))
                if scaled != expected {
                    Issue.record("sample \(Int32(Int16.min) + Int32(index)) at gain \(gain): \(scaled), expected \(expected)")
                    return
                }
            }
        }
    }

    /// The rounding without libm against `Float.rounded()` itself, on every quarter from −70,000 to 70,000
    /// and the floats either side of each half (where adding ½ in Float would round, 0.49999997 + 0.5 = 1),
    /// and on what lies beyond 16 bits.
    @Test func roundingHalfAwayFromZeroMatchesFloatRoundedNearHalves() {
        func expected(_ value: Float) -> Int16 { Int16(max(-32768, min(32767, value.rounded()))) }
        var value: Float = -70_000
        while value < 70_000 {
            let half = value + 0.5
            for probe in [value, value.nextUp, value.nextDown, half, half.nextDown, half.nextUp]
            where Int16(roundingHalfAwayClamped: probe) != expected(probe) {
                Issue.record("\(probe): \(Int16(roundingHalfAwayClamped: probe)), expected \(expected(probe))")
                return
            }
            value += 0.25
        }
        for probe: Float in [0.499_999_97, -0.499_999_97, 2.5, -2.5, 32_767.5, -32_768.5, 1e30, -1e30, .infinity, -.infinity] {
            #expect(Int16(roundingHalfAwayClamped: probe) == expected(probe), "\(probe)")
        }
    }

    @Test func volumeCurveAndCaps() {
        #expect(VolumePolicy.gain(forVolume: 0) == 0)
        #expect(VolumePolicy.gain(forVolume: 100) == 1)
        let half = VolumePolicy.gain(forVolume: 88) // -6 dB
        #expect(abs(half - 0.501) < 0.002)
        let policy = VolumePolicy(volume: 90, speakerCap: 100, headphonesCap: 70, nightCap: 40)
        #expect(policy.effectiveVolume(headphones: false, night: false) == 90)
        #expect(policy.effectiveVolume(headphones: true, night: false) == 70)
        #expect(policy.effectiveVolume(headphones: true, night: true) == 40)
    }
}
