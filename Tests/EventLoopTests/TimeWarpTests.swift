import EventLoop
import FoundationEssentials
import StillroomCore
import Testing

/// The time warp's arithmetic (no timing: computed readings and deadlines), then a warped loop's timers
/// firing in order and never before their warped deadline.
extension EventLoopSuite {
@Suite struct TimeWarpTests {
    let warp = TimeWarp(factor: 600, monotonicOrigin: 5_000_000_000, wallOrigin: 1_790_000_000_000_000_000)

    @Test func readingsRunFactorTimesFastFromTheOrigin() {
        #expect(warp.monotonic(fromReal: 5_000_000_000) == 5_000_000_000)
        #expect(warp.monotonic(fromReal: 5_000_000_000 + 1_000_000_000) == 5_000_000_000 + 600_000_000_000) // 1 s → 10 min
        #expect(warp.wall(fromReal: 1_790_000_000_000_000_000 + 144_000_000_000)
                == 1_790_000_000_000_000_000 + 86_400_000_000_000) // 144 s → one day
        // A wall clock set back before the origin stays warped the same way (and so moves back further).
        #expect(warp.wall(fromReal: 1_790_000_000_000_000_000 - 1_000) == 1_790_000_000_000_000_000 - 600_000)
    }

    @Test func deadlinesGoBackToRealTimeRoundedUpSoTimersNeverFireEarly() {
        for span: Int64 in [1, 599, 600, 601, 1_000_000_007, 86_400_000_000_000] {
            let deadline = 5_000_000_000 + span
            let real = warp.realMonotonic(forDeadline: deadline)
            #expect(warp.monotonic(fromReal: real) >= deadline, "span \(span)")
            #expect(warp.monotonic(fromReal: real - 1) < deadline, "span \(span): the earliest such real time")
        }
        let wallDeadline: Int64 = 1_790_000_000_000_000_000 + 3_600_000_000_000
        #expect(warp.realWall(forDeadline: wallDeadline) == 1_790_000_000_000_000_000 + 6_000_000_000) // 1 h → 6 s
        // A deadline already past maps to a real time already past: it fires at once.
        #expect(warp.realMonotonic(forDeadline: 4_000_000_000) <= 5_000_000_000)
    }

    @Test func noWarpIsTheIdentity() {
        #expect(TimeWarp.none.monotonic(fromReal: 123_456_789) == 123_456_789)
        #expect(TimeWarp.none.realWall(forDeadline: 987_654_321) == 987_654_321)
    }

    @Test func aWarpedLoopFiresTimersInDeadlineOrderAtTheirWarpedTimes() throws {
        let loop = try EventLoop(timeWarpFactor: 3600) // an hour a second
        let start = loop.now
        var fired: [String] = []
        var firedAt: [String: MonotonicInstant] = [:]
        var wallFiredAt: Date?
        let late = loop.makeTimer { fired.append("5 min"); firedAt["5 min"] = loop.now }
        let early = loop.makeTimer { fired.append("1 min"); firedAt["1 min"] = loop.now }
        let wall = loop.makeWallClockTimer { fired.append("wall 3 min"); wallFiredAt = loop.wallNow }
        late.schedule(after: .seconds(300))
        early.schedule(after: .seconds(60))
        let wallDeadline = loop.wallNow.addingTimeInterval(180)
        wall.schedule(at: wallDeadline)
        while fired.count < 3 { try loop.runOnce() }
        #expect(fired == ["1 min", "wall 3 min", "5 min"])
        #expect(try #require(firedAt["1 min"]) >= start + .seconds(60))
        #expect(try #require(firedAt["5 min"]) >= start + .seconds(300))
        #expect(try #require(wallFiredAt) >= wallDeadline)
        #expect(loop.timeWarp.factor == 3600)
    }
}
}
