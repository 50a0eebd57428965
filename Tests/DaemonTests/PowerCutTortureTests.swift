import Glibc
import StillroomCore
import TestSupport
import Testing

/// Power-cut torture on the host: play, seek and pause while the daemon is killed with SIGKILL at random
/// moments, then restart it and check what a person would: the database is intact, the box offers to
/// resume close to where the listener was, no completed run is lost, practice is never lost beyond the
/// checkpoint window. `STILLROOM_TORTURE_CYCLES` sets the number of cuts (50 in scripts/test; the bench
/// runs 1,000). The random choices come from a fixed seed, so a failure replays the same way.
@Suite struct PowerCutTortureTests {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(next() % 10_000) / 10_000 * (range.upperBound - range.lowerBound)
        }
    }

    var cycles: Int {
        Int(String(cString: getenv("STILLROOM_TORTURE_CYCLES") ?? strdup("50"))) ?? 50
    }

    /// `STILLROOM_TORTURE_WARP=N` (bench/torture) runs the daemon's clocks N times fast (`--time-warp`) and
    /// shortens every wait to match, so a thousand cuts take minutes: what is measured is in the daemon's
    /// time (seconds heard, checkpoints every 10 s of it), the kills and restarts stay real.
    var warp: Double {
        Double(String(cString: getenv("STILLROOM_TORTURE_WARP") ?? strdup("1"))) ?? 1
    }

    /// Waits `seconds` of the daemon's time.
    func wait(_ seconds: Double) { usleep(UInt32(seconds / warp * 1_000_000)) }

    @Test func randomCutsNeverLoseMoreThanTheCheckpointWindow() throws {
        let harness = DaemonHarness(content: RepositoryPaths.content,
                                    extraArguments: warp > 1 ? ["--time-warp", String(Int(warp))] : [])
        var random = Generator(state: 0x5717_1200)
        var completedBefore = 0
        var listenedBefore = 0.0
        var worstPositionLoss = 0.0
        harness.start()
        harness.ctl("play", "steady-breath")
        for cycle in 0..<cycles {
            // Listen for a while, sometimes seeking or pausing and resuming. Every fifth cut comes after
            // more than the 10 s a run needs to count, so saved practice is at stake too, not only position.
            let listen = cycle % 5 == 4 ? random.uniform(11...15) : random.uniform(0.3...3.5)
            wait(listen)
            switch random.next() % 6 {
            case 0: harness.ctl("seek", "+\(Int(random.uniform(5...40)))")
            case 1: harness.ctl("seek", "-\(Int(random.uniform(5...40)))")
            case 2:
                harness.ctl("pause")
                wait(random.uniform(0.05...0.6))
                harness.ctl("resume")
            default: break
            }
            wait(random.uniform(0.0...1.5))
            let before = statusJSON(harness.ctl("status", "--json").stdout)
            let heard = before["position"]?.doubleValue ?? 0
            let wasActive = before["state"]?.stringValue == "playing" || before["state"]?.stringValue == "paused"
            harness.stop(signal: SIGKILL)

            harness.start()
            let after = statusJSON(harness.ctl("status", "--json").stdout)
            #expect(after["notices"]?.arrayValue?.isEmpty == true, "cycle \(cycle): the database had to be moved aside")
            if wasActive {
                let offer = try #require(after["resumeOffer"]?["position"]?.doubleValue, "cycle \(cycle): no resume offer")
                let lost = heard - (offer + 5) // the offer is rewound 5 s on purpose
                worstPositionLoss = max(worstPositionLoss, lost)
                #expect(lost <= 10.5, "cycle \(cycle): heard \(heard) s, offered \(offer) s")
            }
            let recent = statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue ?? []
            let completed = recent.filter { $0["completed"]?.boolValue == true }.count
            let listened = recent.reduce(0.0) { $0 + ($1["seconds"]?.doubleValue ?? 0) }
            #expect(completed >= completedBefore, "cycle \(cycle): a completed run was lost")
            #expect(listened >= listenedBefore - 0.2, "cycle \(cycle): practice went backwards")
            completedBefore = completed
            listenedBefore = listened
            // Carry on where the box offers (or start again once the session ended).
            harness.ctl("play")
            if statusJSON(harness.ctl("status", "--json").stdout)["state"]?.stringValue != "playing" {
                harness.ctl("play", "steady-breath")
            }
        }
        let (status, log) = harness.stop()
        #expect(status == 0)
        if cycles >= 5 { #expect(listenedBefore > 0, "no practice was ever saved: the cuts never reached it") }
        #expect(!log.contains("<3>"))
        print("power-cut torture: \(cycles) cuts\(warp > 1 ? " (time warp ×\(Int(warp)))" : ""), worst position loss \((worstPositionLoss * 10).rounded() / 10) s, "
              + "\(completedBefore) completed runs, \(Int(listenedBefore)) s of practice kept")
    }
}
