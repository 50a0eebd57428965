import Glibc
import StillroomCore
import TestSupport
import Testing

/// Power-cut torture on the host: play, seek and pause while the daemon is killed with SIGKILL at random
/// moments, then restart it and check what a person would, on both sides: the database is intact; the
/// offer is exactly 5 s before a checkpoint at most 10 s behind what was heard and never ahead of it; the
/// practice kept is at most 10 s less than what was heard since the last start, and never more; no
/// completed run is lost. `STILLROOM_TORTURE_CYCLES` sets the number of cuts (50 in scripts/test; the
/// bench runs 1,000), shared between two boxes tortured at once, each from its own fixed seed, so a failure
/// replays the same way (two because each mostly waits on the daemon's time: they overlap).
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

    /// `STILLROOM_TORTURE_WARP=N` runs the daemon's clocks N times fast (`--time-warp`) and shortens every
    /// wait to match: what is measured is in the daemon's time (seconds heard, checkpoints every 10 s of
    /// it), the kills and restarts stay real. 8 by default, so the 50 cuts of scripts/test take about
    /// half a minute instead of four; bench/torture runs a thousand at 10; 1 runs them in real time.
    var warp: Double {
        Double(String(cString: getenv("STILLROOM_TORTURE_WARP") ?? strdup("8"))) ?? 8
    }

    /// Listens (or waits in a pause) for `seconds` of the daemon's time. This is the torture's random
    /// choice of *when* to act and cut, not a synchronisation: nothing asserted depends on how long it
    /// really took, since every bound is computed from what the daemon reported.
    func listen(_ seconds: Double) { usleep(UInt32(seconds / warp * 1_000_000)) }

    @Test(arguments: [UInt64(0x5717_1200), 0x5717_1201])
    func randomCutsLoseAtMostTenSecondsOfPositionOrPracticeAndNeverOfferAheadOfWhatWasHeard(seed: UInt64) throws {
        let harness = DaemonHarness(content: RepositoryPaths.content,
                                    extraArguments: warp > 1 ? ["--time-warp", String(Int(warp))] : [])
        var random = Generator(state: seed)
        let cycles = (self.cycles + 1) / 2
        var completedBefore = 0
        var worstPositionLoss = 0.0, worstPracticeLoss = 0.0
        harness.start()
        var keptAtStart = PracticeKept(harness) // practice kept when this life of the daemon began
        harness.ctl("play", "steady-breath")
        for cycle in 0..<cycles {
            // Listen for a while, sometimes seeking or pausing and resuming. Every fifth cut comes after
            // more than the 10 s a run needs to count, so saved practice is at stake too, not only position.
            listen(cycle % 5 == 4 ? random.uniform(11...15) : random.uniform(0.3...3.5))
            switch random.next() % 6 {
            case 0: harness.ctl("seek", "+\(Int(random.uniform(5...40)))")
            case 1: harness.ctl("seek", "-\(Int(random.uniform(5...40)))")
            case 2:
                harness.ctl("pause")
                listen(random.uniform(0.05...0.6))
                harness.ctl("resume")
            default: break
            }
            listen(random.uniform(0.0...1.5))
            let asked = monotonicSeconds()
            let before = statusJSON(harness.ctl("status", "--json").stdout)
            harness.stop(signal: SIGKILL)
            // The most the speaker can have played between the status and the kill: it plays by the
            // daemon's clock, `warp` seconds a real second.
            let drift = (monotonicSeconds() - asked) * warp
            let heard = before["position"]?.doubleValue ?? 0
            let heardThisLife = before["heardSeconds"]?.doubleValue ?? 0
            let wasActive = before["state"]?.stringValue == "playing" || before["state"]?.stringValue == "paused"

            harness.start()
            let after = statusJSON(harness.ctl("status", "--json").stdout)
            #expect(after["notices"]?.arrayValue?.isEmpty == true, "cycle \(cycle): the database had to be moved aside")
            #expect(after["state"]?.stringValue == "idle", "cycle \(cycle): the box played by itself")
            if wasActive {
                let offer = try #require(after["resumeOffer"]?["position"]?.doubleValue, "cycle \(cycle): no resume offer")
                let checkpoint = try #require(after["lastCheckpoint"]?["position"]?.doubleValue, "cycle \(cycle): no checkpoint")
                let problems = powerCutPositionProblems(heard: heard, checkpointBefore: before["lastCheckpoint"]?["position"]?.doubleValue,
                                                        drift: drift, checkpointAfter: checkpoint, offer: offer)
                #expect(problems.isEmpty, "cycle \(cycle): \(problems)")
                worstPositionLoss = max(worstPositionLoss, heard - checkpoint)
            }
            // Practice: what this life of the daemon heard, against what the card gained in it.
            let kept = PracticeKept(harness)
            let gained = kept.listeningSeconds - keptAtStart.listeningSeconds
            let lost = heardThisLife - gained
            worstPracticeLoss = max(worstPracticeLoss, lost)
            #expect(gained >= -0.001, "cycle \(cycle): saved practice went backwards by \(-gained) s")
            #expect(lost <= 10 + 0.01, "cycle \(cycle): heard \(heardThisLife) s since the start, kept \(gained) s: more than 10 s lost")
            #expect(gained <= heardThisLife + drift + 0.01, "cycle \(cycle): kept \(gained) s, more than the \(heardThisLife)–\(heardThisLife + drift) s heard")
            let recent = statusJSON(harness.ctl("history", "recent", "--json").stdout)["recent"]?.arrayValue ?? []
            let completed = recent.filter { $0["completed"]?.boolValue == true }.count
            #expect(completed >= completedBefore, "cycle \(cycle): a completed run was lost")
            completedBefore = completed
            keptAtStart = kept
            // Carry on where the box offers (or start again once the session ended).
            harness.ctl("play")
            if statusJSON(harness.ctl("status", "--json").stdout)["state"]?.stringValue != "playing" {
                harness.ctl("play", "steady-breath")
            }
        }
        let (status, log) = harness.stop()
        #expect(status == 0)
        if cycles >= 5 { #expect(keptAtStart.listeningSeconds > 0, "no practice was ever saved: the cuts never reached it") }
        #expect(!log.contains("<3>"))
        func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        print("power-cut torture, seed \(String(seed, radix: 16)): \(cycles) cuts\(warp > 1 ? " (time warp ×\(Int(warp)))" : ""), worst position loss \(tenth(worstPositionLoss)) s, "
              + "worst practice loss \(tenth(worstPracticeLoss)) s, \(completedBefore) completed runs, \(Int(keptAtStart.listeningSeconds)) s of practice kept")
    }
}
