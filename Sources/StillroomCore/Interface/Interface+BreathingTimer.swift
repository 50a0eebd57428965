// The silent breathing timer: set up, started, stopped and followed as it runs.

extension Interface {
    /// Starts the timer chosen on the set-up screen (a length being chosen is kept first) and shows it
    /// over the screen it was started from.
    mutating func startTimer(_ model: InterfaceModel) -> [InterfaceEffect] {
        var effects = [InterfaceEffect]()
        let minutes = TimerText.minutes(timerMinutesEdit ?? model.settings.timerMinutes)
        if timerMinutesEdit != nil { effects.append(.changeSetting(key: "timer-minutes", value: String(minutes))) }
        effects += closeTransient()
        if screen == .idle { stack.removeLast() }
        let pattern = TimerText.patternName(model.settings.timerPattern)
        effects.append(.startBreathingTimer(patternName: pattern, minutes: minutes))
        stack.append(Page(.breathingTimer))
        return effects + say("Breathing timer, \(InterfaceText.spokenMinutes(minutes)): \(TimerText.spokenRhythm(pattern)). "
            + "PLAY or BACK stops it.", model)
    }

    /// Stops the running timer and returns to the screen it was started from.
    mutating func stopTimer(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        let minutes = model.breathingTimer.map { Int($0.elapsedSeconds(at: now) / 60) } ?? 0
        stack.removeAll { $0.screen == .breathingTimer }
        if stack.isEmpty { stack = [Page(.library)] }
        var effects: [InterfaceEffect] = [.stopBreathingTimer]
        if power != .on && screen != .idle { stack.append(Page(.idle)) } // stopped in the dark: as the dark timer leaves it
        effects += say("Timer stopped" + (minutes > 0 ? " after \(InterfaceText.spokenMinutes(minutes))." : ".")
            + (power == .on ? " " + screenAnnouncement(model) : ""), model)
        return effects
    }

    /// Follows a timer started or ended by someone else (the CLI, or its own end): its screen comes up
    /// over whatever shows, and goes when it ends, back to where it was started from.
    mutating func followTimer(_ model: InterfaceModel, wasShowing: Bool, now: MonotonicInstant) -> [InterfaceEffect] {
        let timer = model.breathingTimer
        guard timer != lastTimer else { return [] }
        defer { lastTimer = timer }
        var effects: [InterfaceEffect] = []
        if let timer {
            if screen != .breathingTimer {
                effects += closeTransient()
                if screen == .idle { stack.removeLast() }
                stack.append(Page(.breathingTimer))
                effects += say("Breathing timer, \(InterfaceText.spokenMinutes(Int(timer.length.seconds / 60))): "
                    + "\(TimerText.spokenRhythm(timer.patternName)).", model)
            }
        } else if let last = lastTimer {
            if last.isFinished(at: now) {
                effects += say("Breathing timer finished.", model)
            } else if wasShowing {
                effects += say("Breathing timer stopped.", model)
            }
            // Ended with the screen dim or dark: the resting face, as the dim timer would have shown.
            if power != .on && !model.player.isPlaying && screen != .idle { stack.append(Page(.idle)) }
        }
        return effects
    }
}
