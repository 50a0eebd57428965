import StillroomCore
import Testing

@Suite struct PracticeLedgerTests {
    let rate = 44_100
    let length = Int64(300 * 44_100) // a five-minute recording
    let t0 = MonotonicInstant(nanoseconds: 1_000_000_000)
    let wall: UnixMilliseconds = 1_790_000_000_000

    func seconds(_ from: Double, _ to: Double) -> Range<Int64> { Int64(from * 44_100)..<Int64(to * 44_100) }

    mutating func hear(_ ledger: inout PracticeLedger, _ ranges: [Range<Int64>], session: String = "steady", trusted: Bool = true) -> [PracticeLedger.Effect] {
        ledger.heard(ranges, sessionID: session, sampleRate: rate, recordingFrames: length, now: t0, wall: wall, clockTrusted: trusted)
    }

    @Test mutating func listeningAndCoverageFollowWhatWasHeard() {
        var ledger = PracticeLedger()
        _ = hear(&ledger, [seconds(0, 60)])
        let run = try! #require(ledger.open)
        #expect(run.record.actualListeningSeconds == 60)
        #expect(run.record.coveredSeconds == 60)
        #expect(run.record.completedAt == nil)
    }

    @Test mutating func seekingToTheEndAddsNothingAndNeverCompletes() {
        var ledger = PracticeLedger()
        _ = hear(&ledger, [seconds(0, 20)])
        // The seek itself produces no heard frames; only the last second after it is heard.
        _ = hear(&ledger, [seconds(299, 300)])
        let run = try! #require(ledger.open)
        #expect(run.record.actualListeningSeconds == 21)
        #expect(run.record.coveredSeconds == 21)
        #expect(run.record.completedAt == nil)
    }

    @Test mutating func replayingAddsListeningTimeButNotCoverage() {
        var ledger = PracticeLedger()
        _ = hear(&ledger, [seconds(0, 60)])
        _ = hear(&ledger, [seconds(30, 60)]) // went back 30 s and listened again
        let run = try! #require(ledger.open)
        #expect(run.record.actualListeningSeconds == 90)
        #expect(run.record.coveredSeconds == 60)
        #expect(run.record.coveredRanges == [CoveredRange(start: 0, end: 60)])
    }

    @Test mutating func completionAtNinetyPercentOfDistinctContentIsSavedAtOnce() {
        var ledger = PracticeLedger()
        #expect(hear(&ledger, [seconds(0, 269)]).count == 1) // the first write, once worth keeping
        ledger.didSave(id: 1)
        let effects = hear(&ledger, [seconds(269, 270)]) // 270 of 300 s: 90 %
        guard case .save(let record) = effects.first else { Issue.record("completion not saved"); return }
        #expect(record.completedAt == wall)
    }

    @Test mutating func shortRunsAreNotKept() {
        var ledger = PracticeLedger()
        _ = hear(&ledger, [seconds(0, 9)])
        #expect(ledger.checkpoint(wall: wall).isEmpty)
        #expect(ledger.close(wall: wall).isEmpty)
        #expect(ledger.open == nil)
    }

    @Test mutating func aRunIsWrittenTheMomentItBecomesWorthKeeping() {
        var ledger = PracticeLedger()
        #expect(hear(&ledger, [seconds(0, 9.9)]).isEmpty)
        let effects = hear(&ledger, [seconds(9.9, 10.1)]) // crosses the 10 s minimum between checkpoints
        guard case .save(let record) = effects.first else { Issue.record("not written at 10 s"); return }
        #expect(record.id == nil)
        #expect(hear(&ledger, [seconds(10.1, 12)]).isEmpty) // not twice while the id is on its way
    }

    @Test mutating func checkpointsSaveOnlyWhatChanged() {
        var ledger = PracticeLedger()
        _ = hear(&ledger, [seconds(0, 15)])
        #expect(ledger.checkpoint(wall: wall).count == 1)
        ledger.didSave(id: 42)
        #expect(ledger.checkpoint(wall: wall).isEmpty) // paused: nothing heard, nothing written
        _ = hear(&ledger, [seconds(15, 25)])
        guard case .save(let record) = ledger.checkpoint(wall: wall).first else { Issue.record("no save"); return }
        #expect(record.id == 42)
        #expect(record.actualListeningSeconds == 25)
    }

    @Test mutating func twoSessionsOneEveningAreTwoRuns() {
        var ledger = PracticeLedger()
        _ = hear(&ledger, [seconds(0, 30)], session: "steady")
        let switched = hear(&ledger, [seconds(0, 30)], session: "night")
        guard case .save(let first) = switched.first else { Issue.record("first run not saved"); return }
        #expect(first.sessionID == "steady")
        #expect(ledger.open?.record.sessionID == "night")
        #expect(ledger.open?.record.id == nil)
    }

    @Test mutating func continuingAfterARestartJoinsTheRunWithItsCoverage() {
        var ledger = PracticeLedger()
        let saved = PracticeRunRecord(id: 7, sessionID: "steady", startedAt: wall, actualListeningSeconds: 100,
                                      coveredSeconds: 100, coveredRanges: [CoveredRange(start: 0, end: 100)],
                                      recordingSeconds: 300, clockTrusted: true, updatedAt: wall)
        ledger.join(saved, sampleRate: rate, recordingFrames: length, now: t0)
        _ = hear(&ledger, [seconds(95, 200)]) // resumed 5 s early
        let run = try! #require(ledger.open)
        #expect(run.record.id == 7)
        #expect(run.record.actualListeningSeconds == 205)
        #expect(run.record.coveredSeconds == 200)
    }

    @Test mutating func anUntrustedStartIsReDatedWhenTheClockIsKnown() {
        var ledger = PracticeLedger()
        _ = ledger.heard([seconds(0, 20)], sessionID: "steady", sampleRate: rate, recordingFrames: length,
                         now: t0, wall: 0, clockTrusted: false) // a Pi without RTC: 1970
        let effects = ledger.clockBecameTrusted(now: t0 + .seconds(600), wall: wall)
        guard case .save(let record) = effects.first else { Issue.record("not saved"); return }
        #expect(record.clockTrusted)
        #expect(record.startedAt == wall - 600_000)
    }

    @Test func coverageMergesOverlapsAndCountsOnlyNewFrames() {
        var coverage = FrameCoverage()
        #expect(coverage.add(10..<20) == 10)
        #expect(coverage.add(30..<40) == 10)
        #expect(coverage.add(15..<35) == 10)
        #expect(coverage.ranges == [10..<40])
        #expect(coverage.add(0..<5) == 5)
        #expect(coverage.ranges == [0..<5, 10..<40])
        #expect(coverage.add(5..<10) == 5)
        #expect(coverage.ranges == [0..<40])
    }
}
