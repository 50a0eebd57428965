import StillroomCore
import Testing

/// Feeds (milliseconds, A, B) samples to a decoder; returns the detents' directions.
func turn(_ samples: [(Int, Bool, Bool)], ratio: Int = 4, reversed: Bool = false, start: (Bool, Bool) = (false, false))
    -> [QuadratureDecoder.Detent] {
    var decoder = QuadratureDecoder(transitionsPerDetent: ratio, reversed: reversed, a: start.0, b: start.1)
    return samples.compactMap { decoder.update(a: $0.1, b: $0.2, at: MonotonicInstant(nanoseconds: UInt64($0.0) * 1_000_000)) }
}

/// One full clockwise detent from rest 00 (00 → 01 → 11 → 10 → 00), starting at `t` ms, 2 ms apart.
func clockwise(at t: Int) -> [(Int, Bool, Bool)] { [(t, false, true), (t + 2, true, true), (t + 4, true, false), (t + 6, false, false)] }
func counterClockwise(at t: Int) -> [(Int, Bool, Bool)] { [(t, true, false), (t + 2, true, true), (t + 4, false, true), (t + 6, false, false)] }

@Suite struct QuadratureDecoderTests {
    @Test func cleanDetentsBothWays() {
        #expect(turn(clockwise(at: 0) + clockwise(at: 200)).map(\.direction) == [1, 1])
        #expect(turn(counterClockwise(at: 0)).map(\.direction) == [-1])
    }

    @Test func reversedWiringFlipsTheDirection() {
        #expect(turn(clockwise(at: 0), reversed: true).map(\.direction) == [-1])
    }

    @Test func bounceOnOneEdgeStillGivesOneDetent() {
        let bouncy: [(Int, Bool, Bool)] = [(0, false, true), (1, false, false), (2, false, true), (3, true, true), (4, false, true),
                                           (5, true, true), (7, true, false), (9, false, false)]
        #expect(turn(bouncy).map(\.direction) == [1])
    }

    @Test func noiseOnOneLineWithTheOtherStillNeverTurns() {
        var noise: [(Int, Bool, Bool)] = []
        for index in 0..<40 { noise.append((index, index % 2 == 0, false)) } // A flickers, B stays low
        noise.append((50, false, false))
        #expect(turn(noise).isEmpty)
    }

    @Test func anImpossibleTransitionIsRejectedAndTheDetentRecoveredNext() {
        // 00 -> 11 skips a state: an edge was lost. That partial step is dropped; the next clean detent counts.
        var decoder = QuadratureDecoder(a: false, b: false)
        #expect(decoder.update(a: true, b: true, at: .zero) == nil)
        #expect(decoder.rejected == 1)
        _ = decoder.update(a: false, b: false, at: .zero)
        let detents = clockwise(at: 100).compactMap { decoder.update(a: $0.1, b: $0.2, at: MonotonicInstant(nanoseconds: UInt64($0.0) * 1_000_000)) }
        #expect(detents.map(\.direction) == [1])
    }

    @Test func aMissedMiddleEdgeLosesThatDetentButNeverTurnsTheWrongWay() {
        // 00 -> 01 -> (11 missed) -> 10 -> 00: 01 -> 10 is impossible and rejected; no detent either way.
        let missed: [(Int, Bool, Bool)] = [(0, false, true), (4, true, false), (6, false, false)]
        #expect(turn(missed).isEmpty)
        #expect(turn(missed + clockwise(at: 50)).map(\.direction) == [1])
    }

    @Test func aFastSpinCountsEveryDetentWithShortIntervals() {
        var samples: [(Int, Bool, Bool)] = []
        for index in 0..<20 { samples += clockwise(at: index * 10) } // a detent every 10 ms
        let detents = turn(samples)
        #expect(detents.count == 20)
        #expect(detents.allSatisfy { $0.direction == 1 })
        #expect(detents.dropFirst().allSatisfy { $0.interval == .milliseconds(10) })
        #expect(KnobAcceleration.multiplier(for: detents[5].interval) == 4)
        #expect(KnobAcceleration.multiplier(for: .milliseconds(70)) == 2)
        #expect(KnobAcceleration.multiplier(for: nil) == 1)
    }

    @Test func halfAndQuarterStepEncoders() {
        // Two transitions a detent: rests at 00 and 11.
        let half: [(Int, Bool, Bool)] = [(0, false, true), (2, true, true), (4, true, false), (6, false, false)]
        #expect(turn(half, ratio: 2).map(\.direction) == [1, 1])
        // One transition a detent: every valid step.
        #expect(turn(half, ratio: 1).map(\.direction) == [1, 1, 1, 1])
    }

    @Test func reversingDirectionResetsTheInterval() {
        let detents = turn(clockwise(at: 0) + counterClockwise(at: 20))
        #expect(detents.map(\.direction) == [1, -1])
        #expect(detents[1].interval == nil)
    }
}
