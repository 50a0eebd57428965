import StillroomCore
import Testing

@Suite struct StartTimelineTests {
    private let millisecond: UInt64 = 1_000_000

    @Test func theStagesAddUpToTheTimeFromExecToTheLastMark() {
        var timeline = StartTimeline(exec: 1_000 * millisecond, main: 3_200 * millisecond)
        timeline.mark("database", at: 3_300 * millisecond)
        timeline.mark("catalog", at: 3_504 * millisecond)
        timeline.mark("screen", at: 4_480 * millisecond)
        #expect(timeline.total == 3_480 * millisecond)
        #expect(timeline.stages.map(\.nanoseconds).reduce(0, +) == timeline.total)
        #expect(timeline.summary == "start: 3480 ms from exec to READY (before main 2200, database 100, catalog 204, screen 976)")
    }

    @Test func anUnknownExecCountsFromMain() {
        var timeline = StartTimeline(exec: nil, main: 50 * millisecond)
        timeline.mark("database", at: 62 * millisecond)
        #expect(timeline.summary == "start: 12 ms from main to READY (database 12)")
    }

    /// An exec time read after main can only be a misread clock (ticks taken for seconds, another clock):
    /// it must not make "before main" a wrapped-around number.
    @Test func anExecAfterMainIsTakenAsUnknown() {
        var timeline = StartTimeline(exec: 9_000 * millisecond, main: 50 * millisecond)
        timeline.mark("database", at: 62 * millisecond)
        #expect(timeline.stages.map(\.name) == ["database"])
        #expect(timeline.total == 12 * millisecond)
    }

    @Test func aClockThatGoesBackCountsTheStageAsZeroAndNothingWraps() {
        var timeline = StartTimeline(exec: 0, main: 100 * millisecond)
        timeline.mark("database", at: 150 * millisecond)
        timeline.mark("catalog", at: 120 * millisecond)
        timeline.mark("screen", at: 160 * millisecond)
        #expect(timeline.stages.map(\.nanoseconds) == [100 * millisecond, 50 * millisecond, 0, 10 * millisecond])
        #expect(timeline.total == 160 * millisecond)
    }

    @Test func millisecondsAreRoundedToTheNearest() {
        var timeline = StartTimeline(exec: nil, main: 0)
        timeline.mark("a", at: 499_999)
        timeline.mark("b", at: 2_000_000)
        #expect(timeline.summary == "start: 2 ms from main to READY (a 0, b 2)")
    }

    @Test func theStartIsFieldTwentyTwoOfProcStatCountedFromTheLastParenthesis() {
        let plain = "4242 (stillroomd) S 1 4242 4242 0 -1 4194560 905 0 0 0 3 1 0 0 20 0 1 0 12345 24334336 2383 18446744073709551615"
        #expect(StartTimeline.startTicks(procStat: plain) == 12345)
        // A command name may hold spaces and parentheses: "(a) b) c" is one name.
        let awkward = "7 (a) b) c) R 1 7 7 0 -1 4194560 905 0 0 0 3 1 0 0 20 0 1 0 777 24334336 2383 1"
        #expect(StartTimeline.startTicks(procStat: awkward) == 777)
    }

    @Test(arguments: ["", "no parenthesis here", "1 (x) S 1 2 3", "1 (x) S 1 1 1 0 -1 4 9 0 0 0 3 1 0 0 20 0 1 0 -5 1 1",
                      "1 (x) S 1 1 1 0 -1 4 9 0 0 0 3 1 0 0 20 0 1 0 99999999999999999999999 1 1"])
    func aStatTextWithoutAStartIsNil(_ text: String) {
        #expect(StartTimeline.startTicks(procStat: text) == nil)
    }
}
