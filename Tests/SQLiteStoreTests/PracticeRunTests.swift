import Glibc
@testable import SQLiteStore
import StillroomCore
import Testing

@Suite struct PracticeRunTests {
    let hour: Int64 = 3_600_000

    func run(_ session: String, startedAt: UnixMilliseconds, trusted: Bool = true) -> PracticeRunRecord {
        PracticeRunRecord(sessionID: session, startedAt: startedAt, recordingSeconds: 300, clockTrusted: trusted,
                          updatedAt: startedAt)
    }

    @Test func insertAssignsIdsAndUpdateRewritesEveryField() throws {
        try withFreshStore { (store, _) throws in
            let first = try store.insertPracticeRun(run("breathe-5", startedAt: testNow))
            let second = try store.insertPracticeRun(run("focus-10", startedAt: testNow))
            let firstID = try #require(first.id)
            #expect(try #require(second.id) > firstID)

            var updated = first
            updated.actualListeningSeconds = 301.5
            updated.coveredSeconds = 280.25
            updated.coveredRanges = [CoveredRange(start: 0, end: 120.5), CoveredRange(start: 140.75, end: 300)]
            updated.completedAt = testNow + 400_000
            updated.updatedAt = testNow + 400_000
            #expect(try store.updatePracticeRun(updated))
            #expect(try store.practiceRun(id: firstID) == updated)
            #expect(try store.practiceRun(id: try #require(second.id)) == second)
        }
    }

    @Test func updatingAMissingRunReportsFalseAndARunWithoutIdIsRefused() throws {
        try withFreshStore { (store, _) throws in
            var ghost = run("x", startedAt: testNow)
            expectStoreError(.invalidArgument) { try store.updatePracticeRun(ghost) }
            ghost.id = 999
            #expect(try store.updatePracticeRun(ghost) == false)
            #expect(try store.practiceRun(id: 999) == nil)
        }
    }

    @Test func rangeListsTrustedRunsStartedInsideHalfOpenInterval() throws {
        try withFreshStore { (store, _) throws in
            let day = testNow - testNow % (24 * hour)
            let before = try store.insertPracticeRun(run("a", startedAt: day - 1))
            let atStart = try store.insertPracticeRun(run("b", startedAt: day))
            let later = try store.insertPracticeRun(run("c", startedAt: day + 5 * hour))
            let earlierButInsertedLast = try store.insertPracticeRun(run("d", startedAt: day + 2 * hour))
            _ = try store.insertPracticeRun(run("e", startedAt: day + 24 * hour)) // the end is excluded
            _ = try store.insertPracticeRun(run("untrusted", startedAt: day + hour, trusted: false))

            let listed = try store.practiceRuns(startedFrom: day, before: day + 24 * hour)
            #expect(listed == [atStart, earlierButInsertedLast, later])
            #expect(try store.practiceRuns(startedFrom: day - 10, before: day).map(\.id) == [before.id])
        }
    }

    @Test func recentIsByInsertionNotByClock() throws {
        try withFreshStore { (store, _) throws in
            let a = try store.insertPracticeRun(run("a", startedAt: testNow))
            let b = try store.insertPracticeRun(run("b", startedAt: 0, trusted: false)) // clock not set yet
            let c = try store.insertPracticeRun(run("c", startedAt: testNow - hour))
            #expect(try store.recentPracticeRuns(limit: 2) == [c, b])
            #expect(try store.recentPracticeRuns(limit: 10) == [c, b, a])
            #expect(try store.recentPracticeRuns(limit: 0).isEmpty)
        }
    }

    @Test func untrustedRunsCanBeDatedOnceTheClockIsKnown() throws {
        try withFreshStore { (store, _) throws in
            var early = try store.insertPracticeRun(run("a", startedAt: 5_000, trusted: false))
            _ = try store.insertPracticeRun(run("b", startedAt: testNow))
            #expect(try store.untrustedPracticeRuns() == [early])
            #expect(try store.practiceRuns(startedFrom: 0, before: 10_000).isEmpty) // never in 1970

            early.startedAt = testNow - hour
            early.clockTrusted = true
            try store.updatePracticeRun(early)
            #expect(try store.untrustedPracticeRuns().isEmpty)
            #expect(try store.practiceRuns(startedFrom: testNow - 2 * hour, before: testNow).map(\.id) == [early.id])
        }
    }

    @Test func deleteOneAndDeleteAllNeverReuseIds() throws {
        try withFreshStore { (store, _) throws in
            let a = try store.insertPracticeRun(run("a", startedAt: testNow))
            let b = try store.insertPracticeRun(run("b", startedAt: testNow))
            #expect(try store.deletePracticeRun(id: try #require(a.id)))
            #expect(try store.deletePracticeRun(id: try #require(a.id)) == false)
            #expect(try store.recentPracticeRuns(limit: 10) == [b])
            #expect(try store.deleteAllPracticeRuns() == 1)
            #expect(try store.recentPracticeRuns(limit: 10).isEmpty)
            let c = try store.insertPracticeRun(run("c", startedAt: testNow))
            #expect(try #require(c.id) > #require(b.id))
        }
    }

    @Test func nonFiniteOrDisorderedValuesAreRefused() throws {
        try withFreshStore { (store, _) throws in
            var bad = run("a", startedAt: testNow)
            bad.actualListeningSeconds = .nan
            expectStoreError(.invalidArgument) { _ = try store.insertPracticeRun(bad) }
            bad = run("a", startedAt: testNow)
            bad.coveredRanges = [CoveredRange(start: 10, end: 5)]
            expectStoreError(.invalidArgument) { _ = try store.insertPracticeRun(bad) }
            bad = run("a", startedAt: testNow)
            bad.coveredRanges = [CoveredRange(start: 0, end: .infinity)]
            expectStoreError(.invalidArgument) { _ = try store.insertPracticeRun(bad) }
            bad = run("a", startedAt: testNow)
            bad.coveredSeconds = -1
            expectStoreError(.constraint) { _ = try store.insertPracticeRun(bad) }
            #expect(try store.recentPracticeRuns(limit: 10).isEmpty)
        }
    }

    @Test func coveredRangesAreReadableJSONInTheDatabase() throws {
        try withFreshStore { (store, _) throws in
            var record = run("a", startedAt: testNow)
            record.coveredRanges = [CoveredRange(start: 0, end: 12.5), CoveredRange(start: 30, end: 45.25)]
            let stored = try store.insertPracticeRun(record)
            let text = try store.rawColumn("SELECT covered_ranges FROM practice_run WHERE id = \(try #require(stored.id))")
            #expect(text == ["[[0,12.5],[30,45.25]]"])
            #expect(try store.rawColumn("SELECT sum(value ->> 1 - value ->> 0) FROM practice_run, json_each(covered_ranges)") == ["27.75"])
        }
    }

    @Test func malformedStoredRangesAreInvalidData() throws {
        try withFreshStore { (store, _) throws in
            let stored = try store.insertPracticeRun(run("a", startedAt: testNow))
            try store.rawExec("UPDATE practice_run SET covered_ranges = '[[1,2],' ")
            let error = expectStoreError(.invalidData) { _ = try store.practiceRun(id: try #require(stored.id)) }
            #expect(error?.operation == "practice runs.get")
        }
    }
}

@Suite struct CoveredRangesTextTests {
    @Test(arguments: [
        [CoveredRange](),
        [CoveredRange(start: 0, end: 0)],
        [CoveredRange(start: 0, end: 1e-05), CoveredRange(start: 0.1, end: 0.30000000000000004)],
        [CoveredRange(start: 123_456.789, end: 1e15), CoveredRange(start: 2, end: 3)],
    ])
    func roundTripsExactly(_ ranges: [CoveredRange]) throws {
        let text = try CoveredRangesText.encode(ranges, operation: "test")
        #expect(try CoveredRangesText.decode(text, operation: "test") == ranges)
    }

    @Test func acceptsWhitespaceAndRejectsAnythingElse() throws {
        #expect(try CoveredRangesText.decode(" [ [ 1 , 2 ] , [3,4.5] ] ", operation: "t")
            == [CoveredRange(start: 1, end: 2), CoveredRange(start: 3, end: 4.5)])
        for bad in ["", "[", "[[1,2]", "[[1,2],]", "[[1]]", "[[1,2,3]]", "[[2,1]]", "[[-1,2]]", "[[1,2]] x",
                    "[[nan,2]]", "[[1,inf]]", "{\"a\":1}", "[[1e999,1e999]]"] {
            #expect(throws: StoreError.self, "\(bad)") { try CoveredRangesText.decode(bad, operation: "t") }
        }
    }
}

@Suite struct PurgeTests {
    /// Bytes of every file of the database (main, -wal, -shm).
    func fileBytes(_ path: String) -> [UInt8] {
        ["", "-wal", "-shm"].flatMap { suffix -> [UInt8] in
            guard let file = fopen(path + suffix, "rb") else { return [] }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let got = fread(&chunk, 1, chunk.count, file)
                if got <= 0 { break }
                bytes += chunk[..<got]
            }
            return bytes
        }
    }

    func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard haystack.count >= pattern.count else { return false }
        return (0...(haystack.count - pattern.count)).contains { haystack[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    @Test func deletedHistoryLeavesNoTraceInTheFiles() throws {
        try withFreshStore { (store, sandbox) throws in
            let marker = "secret-evening-session"
            for index in 0..<50 {
                _ = try store.insertPracticeRun(PracticeRunRecord(sessionID: "\(marker)-\(index)", startedAt: testNow,
                                                                  recordingSeconds: 300, clockTrusted: true, updatedAt: testNow))
            }
            _ = try store.addFavorite(sessionID: "kept-favourite", now: testNow)
            #expect(contains(fileBytes(store.path), marker))
            try store.deleteAllPracticeRuns()
            #expect(contains(fileBytes(store.path), marker)) // deleted rows linger in free pages and the WAL
            #expect(try store.hasPendingPurge())
            #expect(try store.finishPendingPurge() == .purged)
            #expect(!contains(fileBytes(store.path), marker))
            #expect(try store.hasPendingPurge() == false)
            #expect(try store.favorites().map(\.sessionID) == ["kept-favourite"]) // nothing else touched
            _ = sandbox
        }
    }
}
