import StillroomCore
import Testing

/// Feeds (milliseconds, A, B) samples to a decoder; returns the detents.
func turn(_ samples: [(Int, Bool, Bool)], ratio: Int = 4, reversed: Bool = false, start: (Bool, Bool) = (false, false))
    -> [QuadratureDecoder.Detent] {
    var decoder = QuadratureDecoder(transitionsPerDetent: ratio, reversed: reversed, a: start.0, b: start.1)
    return samples.compactMap { decoder.update(a: $0.1, b: $0.2, at: ms($0.0)) }
}

/// Detents as "time direction" strings with the interval: "6 +1", "16 +1 (10ms)".
func detentTimeline(_ detents: [QuadratureDecoder.Detent]) -> [String] {
    detents.map { detent in
        let time = Int(detent.at.nanoseconds / 1_000_000)
        let sign = detent.direction > 0 ? "+1" : "-1"
        guard let interval = detent.interval else { return "\(time) \(sign)" }
        return "\(time) \(sign) (\(interval.totalNanoseconds / 1_000_000)ms)"
    }
}

/// One full clockwise detent from rest 00 (00 → 01 → 11 → 10 → 00), starting at `t` ms, 2 ms apart.
func clockwise(at t: Int) -> [(Int, Bool, Bool)] { [(t, false, true), (t + 2, true, true), (t + 4, true, false), (t + 6, false, false)] }
func counterClockwise(at t: Int) -> [(Int, Bool, Bool)] { [(t, true, false), (t + 2, true, true), (t + 4, false, true), (t + 6, false, false)] }

@Suite struct QuadratureDecoderTests {
    @Test func cleanDetentsBothWays() {
        #expect(detentTimeline(turn(clockwise(at: 0) + clockwise(at: 200))) == ["6 +1", "206 +1 (200ms)"])
        #expect(detentTimeline(turn(counterClockwise(at: 0))) == ["6 -1"])
    }

    @Test func reversedWiringFlipsTheDirection() {
        #expect(detentTimeline(turn(clockwise(at: 0) + clockwise(at: 100), reversed: true)) == ["6 -1", "106 -1 (100ms)"])
    }

    @Test func reversingMidSpinGivesEachDetentItsOwnDirection() {
        let samples = clockwise(at: 0) + clockwise(at: 30) + counterClockwise(at: 60) + counterClockwise(at: 90)
        #expect(detentTimeline(turn(samples)) == ["6 +1", "36 +1 (30ms)", "66 -1", "96 -1 (30ms)"])
    }

    @Test func aTurnStartedThenTakenBackIsNothing() {
        // Half way to the next detent and back: the knob did not move.
        let samples: [(Int, Bool, Bool)] = [(0, false, true), (5, true, true), (10, false, true), (15, false, false)]
        #expect(turn(samples).isEmpty)
    }

    @Test func bounceOnOneEdgeStillGivesOneDetent() {
        let bouncy: [(Int, Bool, Bool)] = [(0, false, true), (1, false, false), (2, false, true), (3, true, true), (4, false, true),
                                           (5, true, true), (7, true, false), (9, false, false)]
        #expect(detentTimeline(turn(bouncy)) == ["9 +1"])
    }

    @Test func noiseOnOneLineWithTheOtherStillNeverTurns() {
        var noise: [(Int, Bool, Bool)] = []
        for index in 0..<40 { noise.append((index, index % 2 == 0, false)) } // A flickers, B stays low
        noise.append((50, false, false))
        #expect(turn(noise).isEmpty)
        #expect(turn(noise, ratio: 2).isEmpty)
        // Noise on B while A rests high (between detents of a half-step part): nothing either.
        var other: [(Int, Bool, Bool)] = [(0, false, true), (1, true, true)] // one clean half detent: +1
        for index in 0..<20 { other.append((10 + index, true, index % 2 == 0 ? false : true)) }
        #expect(detentTimeline(turn(other, ratio: 2)) == ["1 +1"])
    }

    @Test func noiseOnOneLineOfAOneTransitionEncoderMovesAtMostOneDetent() {
        var noise: [(Int, Bool, Bool)] = []
        for index in 0..<40 { noise.append((index, index % 2 == 0, false)) }
        #expect(detentTimeline(turn(noise, ratio: 1)) == ["0 -1"])
    }

    @Test func anImpossibleTransitionIsRejectedAndTheDetentRecoveredNext() {
        // 00 -> 11 skips a state: an edge was lost. That partial step is dropped; the next clean detent counts.
        var decoder = QuadratureDecoder(a: false, b: false)
        #expect(decoder.update(a: true, b: true, at: .zero) == nil)
        #expect(decoder.rejected == 1)
        #expect(decoder.update(a: false, b: false, at: ms(1)) == nil)
        #expect(decoder.rejected == 2)
        let detents = clockwise(at: 100).compactMap { decoder.update(a: $0.1, b: $0.2, at: ms($0.0)) }
        #expect(detentTimeline(detents) == ["106 +1"])
    }

    @Test func aMissedMiddleEdgeLosesThatDetentButNeverTurnsTheWrongWay() {
        // 00 -> 01 -> (11 missed) -> 10 -> 00: 01 -> 10 is impossible and rejected; no detent either way.
        let missed: [(Int, Bool, Bool)] = [(0, false, true), (4, true, false), (6, false, false)]
        #expect(turn(missed).isEmpty)
        #expect(detentTimeline(turn(missed + clockwise(at: 50))) == ["56 +1"])
    }

    @Test func aFastSpinCountsEveryDetentWithShortIntervals() {
        var samples: [(Int, Bool, Bool)] = []
        for index in 0..<20 { samples += clockwise(at: index * 10) } // a detent every 10 ms
        let detents = turn(samples)
        #expect(detentTimeline(detents) == ["6 +1"] + (1..<20).map { "\($0 * 10 + 6) +1 (10ms)" })
        #expect(KnobAcceleration.multiplier(for: detents[5].interval) == 4)
        #expect(KnobAcceleration.multiplier(for: .milliseconds(70)) == 2)
        #expect(KnobAcceleration.multiplier(for: .milliseconds(100)) == 1)
        #expect(KnobAcceleration.multiplier(for: nil) == 1)
    }

    @Test func halfAndQuarterStepEncoders() {
        // Two transitions a detent: rests at 00 and 11.
        let half: [(Int, Bool, Bool)] = [(0, false, true), (2, true, true), (4, true, false), (6, false, false)]
        #expect(detentTimeline(turn(half, ratio: 2)) == ["2 +1", "6 +1 (4ms)"])
        // One transition a detent: every valid step, as the lines alternate.
        #expect(detentTimeline(turn(half, ratio: 1)) == ["0 +1", "2 +1 (2ms)", "4 +1 (2ms)", "6 +1 (2ms)"])
    }

    @Test func reversingDirectionResetsTheInterval() {
        let detents = turn(clockwise(at: 0) + counterClockwise(at: 20))
        #expect(detentTimeline(detents) == ["6 +1", "26 -1"])
    }

    @Test func theDetentTimelineStampsIntervalsPerDirection() {
        var timeline = DetentTimeline()
        let detents = [timeline.detent(direction: 1, at: ms(0)), timeline.detent(direction: 1, at: ms(30)),
                       timeline.detent(direction: -1, at: ms(50)), timeline.detent(direction: -1, at: ms(250))]
        #expect(detentTimeline(detents) == ["0 +1", "30 +1 (30ms)", "50 -1", "250 -1 (200ms)"])
    }
}
