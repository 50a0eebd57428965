import StillroomCore

/// Hands `event` to `box` and performs what it asks as the daemon does, for the box's millisecond tests:
/// `.then` events are handed back in order, the engine answers a load with `.loaded` (`lengthFrames` at
/// 1,000 frames a second), and a breathing timer's first save is answered with `runID`. Returns every
/// effect, in the order met.
@discardableResult
func perform(_ event: BoxEvent, on box: inout Box, now: MonotonicInstant, wall: UnixMilliseconds,
             lengthFrames: Int64 = 300_000, runID: Int64 = 41) -> [BoxEffect] {
    var met: [BoxEffect] = []
    for effect in box.handle(event, now: now, wall: wall) {
        met.append(effect)
        switch effect {
        case .then(let next):
            met += perform(next, on: &box, now: now, wall: wall, lengthFrames: lengthFrames, runID: runID)
        case .output(.load):
            met += perform(.player(.loaded(lengthFrames: lengthFrames, sampleRate: 1000)), on: &box, now: now, wall: wall,
                           lengthFrames: lengthFrames, runID: runID)
        case .silent(.saveRun(var run, let started)) where run.id == nil:
            run.id = runID
            met += perform(.timerRunInserted(run, startedMonotonic: started), on: &box, now: now, wall: wall,
                           lengthFrames: lengthFrames, runID: runID)
        default: break
        }
    }
    return met
}
