/// The breathing timer inside the box (`SilentPractice`), with the rules around it that were the daemon's:
///
/// - silence means silence: a timer starting pauses a playing recording, and a recording starting ends
///   the timer (Box+Listening.swift);
/// - its minutes count as silent practice when the setting says so, dated by the box's trust in the clock;
/// - a run first saved under an untrusted clock is dated again, with the listening runs, when the clock
///   becomes trustworthy.
extension Box {
    mutating func startBreathingTimer(pattern: String, minutes: Int, now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        guard let timer = BreathingTimer(patternName: pattern, minutes: minutes, startedAt: now) else { return [] }
        let pause: [BoxEffect] = player.phase == .playing ? [.then(.player(.pause(.user)))] : []
        return pause + silentEffects(silent.start(timer, wall: wall, clockTrusted: clockTrusted, counts: model.settings.timerCounts), now: now)
            + [.rebuildModel]
    }

    mutating func finishBreathingTimer(completed: Bool, now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        guard silent.timer != nil else { return [] }
        return silentEffects(silent.finish(completed: completed, now: now, wall: wall, clockTrusted: clockTrusted,
                                           counts: model.settings.timerCounts), now: now) + [.rebuildModel]
    }

    mutating func checkpointBreathingTimer(now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        silentEffects(silent.checkpoint(now: now, wall: wall, clockTrusted: clockTrusted, counts: model.settings.timerCounts), now: now)
    }

    /// The store inserted a timer's run.
    mutating func timerRunInserted(_ run: PracticeRunRecord, startedMonotonic: MonotonicInstant) -> [BoxEffect] {
        guard let id = run.id else { return [] }
        silent.runInserted(id: id, startedMonotonic: startedMonotonic)
        if !run.clockTrusted { untrustedRuns[id] = startedMonotonic } // dated again with the others
        return []
    }

    /// The clock is (or is no longer) trustworthy. Becoming so, the open listening run and every run first
    /// saved under the untrusted clock in this boot are dated again.
    mutating func clockTrust(_ trusted: Bool, now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        let became = trusted && !clockTrusted
        clockTrusted = trusted
        guard became else { return [] }
        var effects = saving(listening.clockBecameTrusted(now: now, wall: wall))
        effects.append(.redateRuns(untrustedRuns))
        untrustedRuns = [:]
        return effects
    }
}
