import Glibc

/// Real seconds on the monotonic clock: only to bound how much the speaker can have played between a
/// status and a kill (a paced speaker plays no faster than its clock), never as a deadline.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// What a power cut may do to the position, in the daemon's own numbers (docs/reliability.md): the
/// checkpoint kept is at most 10 s behind what was heard and never ahead of it; the offer is exactly
/// 5 s before that checkpoint (0:00 at the most). `heard` is the status's position read just before the
/// kill, `checkpointBefore` that status's last checkpoint, `drift` the most the speaker can have played
/// between that status and the kill; `checkpointAfter` and `offer` are what the restarted daemon says.
/// Returns the problems, empty when every bound holds (the status gives milliseconds).
public func powerCutPositionProblems(heard: Double, checkpointBefore: Double?, drift: Double,
                              checkpointAfter: Double, offer: Double) -> [String] {
    let rounding = 0.001
    var problems: [String] = []
    if abs(offer - max(0, checkpointAfter - 5)) > rounding {
        problems.append("offer \(offer) s is not 5 s before the checkpoint \(checkpointAfter) s")
    }
    if heard - checkpointAfter > 10 + rounding {
        problems.append("checkpoint \(checkpointAfter) s is \(heard - checkpointAfter) s behind what was heard (\(heard) s): more than 10 s lost")
    }
    if let checkpointBefore, abs(checkpointAfter - checkpointBefore) <= rounding {
        // The checkpoint the status already showed: it cannot be ahead of that status's position.
        if checkpointAfter > heard + rounding {
            problems.append("checkpoint \(checkpointAfter) s is ahead of what was heard (\(heard) s)")
        }
    } else if checkpointAfter < heard - rounding || checkpointAfter > heard + drift + rounding {
        // Written after the status: at or after its position, and no further than the speaker could play.
        problems.append("checkpoint \(checkpointAfter) s written after the status is outside [\(heard), \(heard + drift)] s")
    }
    return problems
}
