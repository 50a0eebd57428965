import Glibc
import Testing
import TestSupport

/// The skip helper itself: under CI an unmet need is a failure, locally a loud, logged skip. Both ways
/// are driven with the environment passed in, so this runs the same on CI and on a laptop.
@Suite struct RequirementTests {
    let here = SourceLocation(fileID: "TestSupportTests/RequirementTests.swift", filePath: #filePath, line: 1, column: 1)

    @Test func anUnmetNeedUnderCIIsAFailure() {
        let log = TemporaryDirectory("stillroom-skips")
        defer { log.remove() }
        // The failure is the point: withKnownIssue fails this test if `unmet` records nothing. What it answers is
        // checked outside, where a wrong answer is a failure of its own (inside, it would be one more known issue).
        var goOn = true
        withKnownIssue("under CI an unmet need must record a failure") {
            goOn = Requirement.unmet("a test machine without root", underCI: true, skipLog: log.file("skips.txt"), location: here)
        }
        #expect(!goOn, "under CI an unmet need must stop the test")
        #expect(!Files.exists(log.file("skips.txt")), "under CI nothing is logged as skipped: it failed instead")
    }

    @Test func anUnmetNeedLocallyIsASkipLoggedWithTheTestsName() {
        let log = TemporaryDirectory("stillroom-skips")
        defer { log.remove() }
        let path = log.file("skips.txt")
        #expect(!Requirement.unmet("no python3 here", underCI: false, skipLog: path, location: here, sayOnStderr: false))
        #expect(!Requirement.unmet("no network namespace", underCI: false, skipLog: path, location: here, sayOnStderr: false))
        let lines = String(decoding: Files.read(path), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("SKIPPED: TestSupportTests.RequirementTests.anUnmetNeedLocallyIsASkipLoggedWithTheTestsName") == true,
                "\(lines)")
        #expect(lines.first?.contains(": no python3 here") == true && lines.last?.contains(": no network namespace") == true)
    }

    @Test func aMetNeedRunsAndLogsNothing() {
        #expect(Requirement.need(true, "never said"))
    }
}
