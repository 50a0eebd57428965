import StillroomCore
import Testing

@Suite struct PlayoutMapTests {
    @Test func contiguousWritesAreOneSegmentAndHeardRangesFollowPlayedFrames() {
        var map = PlayoutMap()
        map.appendWritten(recordingFrame: 1000, count: 500)
        map.appendWritten(recordingFrame: 1500, count: 500)
        #expect(map.writtenFrames == 1000)
        #expect(map.recordingPosition(afterPlayed: 0) == 1000)
        #expect(map.recordingPosition(afterPlayed: 700) == 1700)
        #expect(map.takeHeard(upTo: 700) == [1000..<1700])
        #expect(map.takeHeard(upTo: 700) == [])
        #expect(map.takeHeard(upTo: 5000) == [1700..<2000]) // cannot hear more than was written
        #expect(map.recordingPosition(afterPlayed: 1000) == 2000)
    }

    @Test func aSeekStartsANewSegmentSoSkippedFramesAreNeverHeard() {
        var map = PlayoutMap()
        map.appendWritten(recordingFrame: 0, count: 100)
        map.appendWritten(recordingFrame: 90_000, count: 100) // seek forward
        #expect(map.recordingPosition(afterPlayed: 100) == 90_000)
        #expect(map.takeHeard(upTo: 150) == [0..<100, 90_000..<90_050])
    }

    @Test func aRewindTakesBackOnlyUnheardFrames() {
        var map = PlayoutMap()
        map.appendWritten(recordingFrame: 0, count: 1000)
        #expect(map.takeHeard(upTo: 300) == [0..<300])
        map.truncate(toWritten: 200) // cannot take back what was heard
        #expect(map.writtenFrames == 300)
        map.truncate(toWritten: 400) // nothing to take back beyond what is written
        #expect(map.writtenFrames == 300)
        map.appendWritten(recordingFrame: 300, count: 50) // the fade-out, from the rewind point
        #expect(map.recordingPosition(afterPlayed: 350) == 350)
        #expect(map.takeHeard(upTo: 350) == [300..<350])
    }

    @Test func aRewindAcrossSegmentsDropsTheWholeLaterSegment() {
        var map = PlayoutMap()
        map.appendWritten(recordingFrame: 0, count: 100)
        map.appendWritten(recordingFrame: 5000, count: 100)
        map.truncate(toWritten: 80)
        #expect(map.writtenFrames == 80)
        #expect(map.recordingPosition(afterPlayed: 80) == 80)
        #expect(map.takeHeard(upTo: 1000) == [0..<80])
    }

    @Test func resetStartsOver() {
        var map = PlayoutMap()
        map.appendWritten(recordingFrame: 10, count: 10)
        map.reset()
        #expect(map.writtenFrames == 0)
        #expect(map.recordingPosition(afterPlayed: 0) == nil)
    }
}
