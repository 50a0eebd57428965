import Glibc
import StillroomCore
import TestSupport
import Testing

/// Hours of use on a warped clock (`STILLROOM_SOAK_HOURS`, 2 here; bench/soak/run does 24) against the real
/// daemon and store: descriptors come back to the same count after every cycle, memory stays flat once
/// warm, and the practice kept is exactly what the daemon says its speaker played. No timing is asserted
/// (how many sessions fit in a warped day depends on the host); the figures are printed for
/// docs/reliability.md.
@Suite struct SoakTests {
    static func environment(_ name: String, default value: Int) -> Int {
        getenv(name).flatMap { Int(String(cString: $0)) } ?? value
    }

    @Test func warpedHoursOfUseKeepDescriptorsAndMemoryFlat() throws {
        let hours = Double(Self.environment("STILLROOM_SOAK_HOURS", default: 2))
        let screen = getenv("STILLROOM_SOAK_SCREEN").map { String(cString: $0) } // WxH: draw the screen too
        let driver = SoakDriver(warp: Self.environment("STILLROOM_SOAK_WARP", default: 600), screen: screen)
        let realStart = SoakReport.realSeconds()
        driver.start()
        driver.sample() // just started: before any playback
        // At least three cycles: on a busy machine stillroomctl is slow, and each call costs warped minutes.
        while driver.warpedHoursElapsed < hours || driver.cycles < 3 { driver.runCycle() }
        let practice = driver.practiceRecorded()
        let heard = driver.heardSeconds
        let report = SoakReport(driver: driver, practice: practice, realSeconds: SoakReport.realSeconds() - realStart)
        let (status, log) = driver.stop()
        for line in report.lines { print("soak: " + line) }

        #expect(status == 0)
        #expect(!log.contains("<3>"), "an error was logged")
        // After the first cycle everything a cycle opens has been opened once; from then on, flat.
        let warm = driver.samples.dropFirst()
        for sample in warm {
            #expect(sample.descriptors == warm.first?.descriptors, "cycle \(sample.cycle): \(report.descriptorChange)")
        }
        let growth = (warm.last?.rssKB ?? 0) - (warm.first?.rssKB ?? 0)
        #expect(growth < 2048, "resident memory grew \(growth) kB after warm-up")
        // Practice kept is what the speaker played, as the daemon counted it (every run is far above the
        // 10 s minimum and closed when its session ended), to the rounding of the CSV (a millisecond a run).
        #expect(abs(practice.listeningSeconds - heard) <= 0.001 * Double(practice.runs + 1),
                "\(practice.listeningSeconds) s of practice kept, \(heard) s heard")
        // Every breathing timer ran its minute to the end.
        #expect(abs(practice.silentSeconds - 60 * Double(driver.cycles)) <= 0.001 * Double(driver.cycles), "\(practice.silentSeconds) s of timers")
        // And what was heard is what the cycles' script allows, however late the driver's commands came:
        // each session to its end, less at most the 30 s the forward seek skips, plus at most the 15 s the
        // seek back repeats.
        #expect(heard >= driver.sessionSecondsPlayed - 30 * Double(driver.cycles), "\(heard) s heard")
        #expect(heard <= driver.sessionSecondsPlayed + 15 * Double(driver.cycles), "\(heard) s heard")
    }
}

/// The figures of a soak, as printed and recorded in docs/reliability.md.
struct SoakReport {
    let driver: SoakDriver
    let practice: PracticeKept
    let realSeconds: Double

    static func realSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Each session is heard whole except the net 15 s its seeks skip (+30 then −15); each timer runs a minute.
    var expectedPracticeSeconds: Double {
        driver.sessionSecondsPlayed - 15 * Double(driver.cycles) + driver.timerSecondsRun
    }

    /// What the descriptors are now, against after the first cycle.
    var descriptorChange: String { Self.difference(from: driver.warmDescriptors, to: SoakDriver.descriptorTargets(driver.pid)) }

    static func difference(from old: [String], to new: [String]) -> String {
        let added = new.filter { !old.contains($0) }
        let gone = old.filter { !new.contains($0) }
        return "opened \(added.isEmpty ? "nothing" : added.joined(separator: " ")), closed \(gone.isEmpty ? "nothing" : gone.joined(separator: " "))"
    }

    var lines: [String] {
        let samples = driver.samples
        guard let first = samples.first, let last = samples.last else { return ["no samples"] }
        let warm = Array(samples.dropFirst())
        let firstHour = warm.filter { $0.warpedHours <= (warm.first?.warpedHours ?? 0) + 1 }
        let lastHour = warm.filter { $0.warpedHours >= (last.warpedHours - 1) }
        func mean(_ values: [Int]) -> Int { values.isEmpty ? 0 : values.reduce(0, +) / values.count }
        return [
            "\(driver.cycles) cycles, \(format(last.warpedHours)) warped hours in \(Int(realSeconds)) s real (warp ×\(driver.warp), "
                + "screen \(driver.screen ?? "none"), \(BuiltProducts.directory.hasSuffix("release") ? "release" : "debug") build); "
                + "\(driver.keyResumes) resumed by the PLAY key",
            "RSS kB: start \(first.rssKB), after cycle 1 \(warm.first?.rssKB ?? 0), end \(last.rssKB), "
                + "max \(samples.map(\.rssKB).max() ?? 0); peak (VmHWM) \(samples.map(\.peakKB).max() ?? 0)",
            "RSS kB mean: first warm warped hour \(mean(firstHour.map(\.rssKB))), last warped hour \(mean(lastHour.map(\.rssKB))); "
                + "slope after warm-up \(format(slope(warm.map { ($0.warpedHours, Double($0.rssKB)) }))) kB per warped hour",
            "RSS kB by warped hour: " + samples.map { "\(Int($0.warpedHours.rounded())):\($0.rssKB)" }.joined(separator: " "),
            "descriptors: start \(first.descriptors), after cycle 1 \(warm.first?.descriptors ?? 0), end \(last.descriptors), "
                + "max \(samples.map(\.descriptors).max() ?? 0); the first cycle "
                + Self.difference(from: driver.firstDescriptors, to: driver.warmDescriptors),
            "database bytes: start \(first.databaseBytes), end \(last.databaseBytes); WAL start \(first.walBytes), "
                + "end \(last.walBytes), max \(samples.map(\.walBytes).max() ?? 0)",
            "sessions took \(format(driver.sessionWarpedSeconds / 60)) warped min for \(format(driver.sessionPlannedSeconds / 60)) min "
                + "of listening and pauses (\(format(driver.sessionWarpedSeconds / max(1, driver.sessionPlannedSeconds)))×: 1 = the speaker kept up)",
            "practice: \(practice.runs) runs, \(format(practice.listeningSeconds / 60)) min of listening and "
                + "\(format(practice.silentSeconds / 60)) min of timers recorded; \(format(expectedPracticeSeconds / 60)) min planned",
        ]
    }

    private func format(_ value: Double) -> String { String((value * 100).rounded() / 100) }

    /// Least-squares slope of y over x (0 with fewer than two points).
    private func slope(_ points: [(Double, Double)]) -> Double {
        guard points.count >= 2 else { return 0 }
        let n = Double(points.count)
        let meanX = points.map(\.0).reduce(0, +) / n
        let meanY = points.map(\.1).reduce(0, +) / n
        let covariance = points.reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let variance = points.reduce(0) { $0 + ($1.0 - meanX) * ($1.0 - meanX) }
        return variance == 0 ? 0 : covariance / variance
    }
}
