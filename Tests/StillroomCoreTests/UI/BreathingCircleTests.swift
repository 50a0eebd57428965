import Testing
import StillroomCore

@Suite struct BreathingCircleTests {
    let track = BreathCueTrack(cues: [
        BreathCue(phase: .inhale, startSeconds: 10, endSeconds: 14),
        BreathCue(phase: .hold, startSeconds: 14, endSeconds: 16),
        BreathCue(phase: .exhale, startSeconds: 16, endSeconds: 22),
        BreathCue(phase: .inhale, startSeconds: 25, endSeconds: 29),
    ])

    @Test func eachMovementStartsAndEndsGentlyAtItsLimits() {
        #expect(BreathingCircle.expansion(phase: .inhale, progress: 0) == 0)
        #expect(BreathingCircle.expansion(phase: .inhale, progress: 1) == 1)
        #expect(BreathingCircle.expansion(phase: .inhale, progress: 0.5) == 0.5)
        #expect(BreathingCircle.expansion(phase: .exhale, progress: 0) == 1)
        #expect(BreathingCircle.expansion(phase: .exhale, progress: 1) == 0)
        #expect(BreathingCircle.expansion(phase: .hold, progress: 0.3) == 1)
        // Grows steadily through an inhale, slowest at the ends.
        var last = -1.0
        for step in 0...100 {
            let value = BreathingCircle.expansion(phase: .inhale, progress: Double(step) / 100)
            #expect(value >= last)
            last = value
        }
        let early = BreathingCircle.expansion(phase: .inhale, progress: 0.01)
        let middle = BreathingCircle.expansion(phase: .inhale, progress: 0.51) - BreathingCircle.expansion(phase: .inhale, progress: 0.5)
        #expect(early < middle / 10)
    }

    @Test(arguments: [
        (0.0, nil, 0.0), (9.99, nil, 0.0), (10.0, BreathPhase.inhale, 0.0), (12.0, .inhale, 0.5), (14.0, .hold, 1.0),
        (15.0, .hold, 1.0), (19.0, .exhale, 0.5), (22.0, nil, 0.0), (24.0, nil, 0.0), (27.0, .inhale, 0.5), (40.0, nil, 1.0),
    ] as [(Double, BreathPhase?, Double)])
    func stateFollowsTheRecordingsCues(_ seconds: Double, _ phase: BreathPhase?, _ expansion: Double) {
        let state = BreathingCircle.state(in: track, atSeconds: seconds)
        #expect(state.phase == phase)
        #expect(abs(state.expansion - expansion) < 1e-9)
    }

    /// The circle at a moment depends on that moment only: drawing every frame or skipping most of
    /// them shows the same circle at the same time.
    @Test func skippedFramesNeverShiftTheTiming() {
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        let pattern = BreathPattern.calm
        let probe = start + .milliseconds(7_345)
        let direct = BreathingCircle.state(pattern: pattern, start: start, now: probe)
        // A clock stepping at 30 fps, or at 2 fps, or a frame after a long stall.
        for step in [33, 500, 7_000] as [Int64] {
            var now = start
            while now + .milliseconds(step) <= probe { now = now + .milliseconds(step) }
            _ = BreathingCircle.state(pattern: pattern, start: start, now: now) // earlier frames change nothing
            #expect(BreathingCircle.state(pattern: pattern, start: start, now: probe) == direct)
        }
        // One cycle later it is at the same place.
        #expect(BreathingCircle.state(pattern: pattern, start: start, now: probe + pattern.cycle) == direct)
    }

    @Test func patternWalksThroughItsPhases() {
        let start = MonotonicInstant(nanoseconds: 1_000_000_000)
        let pattern = BreathPattern(inhale: .seconds(4), holdIn: .seconds(2), exhale: .seconds(6), holdOut: .seconds(1))
        func at(_ ms: Int64) -> BreathState { BreathingCircle.state(pattern: pattern, start: start, now: start + .milliseconds(ms)) }
        #expect(at(0).phase == .inhale && at(0).expansion == 0)
        #expect(at(2_000).phase == .inhale && abs(at(2_000).expansion - 0.5) < 1e-9)
        #expect(at(4_000).phase == .hold && at(4_000).expansion == 1)
        #expect(at(6_000).phase == .exhale && at(6_000).expansion == 1)
        #expect(at(12_000).phase == nil && at(12_000).expansion == 0)
        #expect(at(13_000).phase == .inhale)
        #expect(BreathingCircle.state(pattern: pattern, start: start, now: MonotonicInstant(nanoseconds: 10)) == .resting(at: 0))
        #expect(BreathingCircle.nextPhaseChange(pattern: pattern, start: start, now: start + .milliseconds(4_500)) == start + .seconds(6))
        #expect(BreathingCircle.nextPhaseChange(pattern: pattern, start: start, now: start + .milliseconds(12_500)) == start + .seconds(13))
        #expect(BreathingCircle.nextPhaseChange(in: track, afterSeconds: 3) == 10)
        #expect(BreathingCircle.nextPhaseChange(in: track, afterSeconds: 15) == 16)
        #expect(BreathingCircle.nextPhaseChange(in: track, afterSeconds: 23) == 25)
        #expect(BreathingCircle.nextPhaseChange(in: track, afterSeconds: 29) == nil)
    }

    @Test func radiusSpansTheRange() {
        #expect(BreathingCircle.radius(expansion: 0, minimum: 40, maximum: 100) == 40)
        #expect(BreathingCircle.radius(expansion: 1, minimum: 40, maximum: 100) == 100)
        #expect(BreathingCircle.radius(expansion: 2, minimum: 40, maximum: 100) == 100)
    }

    /// The next whole-pixel step is found exactly: the radius is the same a millisecond before, and
    /// different at it; holds skip to their end.
    @Test func nextRadiusChangeFindsTheNextWholePixel() {
        let start = MonotonicInstant(nanoseconds: 2_000_000_000)
        let pattern = BreathPattern.calm
        func pixels(_ t: MonotonicInstant) -> Double {
            BreathingCircle.radius(expansion: BreathingCircle.state(pattern: pattern, start: start, now: t).expansion,
                                   minimum: 80, maximum: 176).rounded()
        }
        for ms in [0, 10, 700, 2_000, 3_990, 6_500, 9_000, 11_999] as [Int64] {
            let now = start + .milliseconds(ms)
            let next = BreathingCircle.nextRadiusChange(pattern: pattern, start: start, now: now, minimum: 80, maximum: 176)
            #expect(next > now)
            #expect(next <= BreathingCircle.nextPhaseChange(pattern: pattern, start: start, now: now))
            #expect(pixels(next + .nanoseconds(-1_000_001)) == pixels(now) || next - now <= .milliseconds(1))
        }
        // During the hold nothing moves until the exhale begins.
        let holding = start + .milliseconds(4_500)
        #expect(BreathingCircle.nextRadiusChange(pattern: pattern, start: start, now: holding, minimum: 80, maximum: 176)
                == start + .seconds(6))
        // In a recording: inside a cue, in a gap, after the last cue.
        let inCue = BreathingCircle.nextRadiusChange(in: track, atSeconds: 11, minimum: 80, maximum: 176)!
        #expect(inCue > 11 && inCue < 14)
        #expect(BreathingCircle.nextRadiusChange(in: track, atSeconds: 23, minimum: 80, maximum: 176)! >= 25)
        #expect(BreathingCircle.nextRadiusChange(in: track, atSeconds: 40, minimum: 80, maximum: 176) == nil)
    }
}
