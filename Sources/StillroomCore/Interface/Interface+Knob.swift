// The knob: turning moves the focus, scrolls, adjusts a setting or previews a seek.

extension Interface {
    mutating func moveFocus(_ steps: Int, _ model: InterfaceModel) -> [InterfaceEffect] {
        if showsResumeOffer(model), let offer = model.player.resumeOffer {
            return say(resumeOfferText(offer, model), model)
        }
        if var edit = editing, screen == .settings {
            edit.value = Self.adjusted(edit.row, edit.value, by: steps)
            editing = edit
            return say(SettingsText.adjustedText(edit.row, edit.value), model)
        }
        if let minutes = timerMinutesEdit, screen == .timerSetup {
            let next = TimerText.minutes(minutes + steps)
            timerMinutesEdit = next
            return next == minutes ? [] : say(InterfaceText.spokenMinutes(next), model)
        }
        let items = focusItems(on: screen, model: model)
        guard !items.isEmpty else { return [] }
        let current = focus(model)
        let index = items.firstIndex { $0.key == current } ?? 0
        let next = min(items.count - 1, max(0, index + steps))
        stack[stack.count - 1].focus = items[next].key
        return next == index ? [] : say(items[next].label, short: items[next].brief, model)
    }

    static func adjusted(_ row: SettingRow, _ value: Int, by steps: Int) -> Int {
        if row == .reminder {
            // Off sits before 00:00; the times wrap round the day after that.
            let slots = 1440 / reminderStep
            let slot = value < 0 ? -1 : value / reminderStep
            var next = slot + steps
            if next < -1 { next = slots - 1 }
            if next >= slots { next = -1 }
            return next < 0 ? -1 : next * reminderStep
        }
        return min(100, max(0, (value / volumeStep + steps) * volumeStep))
    }

    mutating func scroll(_ steps: Int, _ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        if screen == .transcript, let transcript = model.transcript, !transcript.cues.isEmpty {
            // A detent is a page: a cue that fits the screen, or one page of a long one.
            let pages = model.transcriptPages
            let current = Self.currentPlace(transcript, pages, model.player, now: now) ?? TranscriptPlace(cue: 0)
            let anchor = pages.place(transcriptAnchor ?? current, movedBy: steps, in: transcript)
            if anchor == current {
                transcriptAnchor = nil
                return say("Following the recording.", model)
            }
            transcriptAnchor = anchor
            return say(pages.text(at: anchor, in: transcript), model)
        }
        return moveFocus(steps, model)
    }

    /// The page being spoken: the current cue, and the page of it the recording has reached.
    static func currentPlace(_ transcript: Transcript, _ pages: TranscriptPages, _ player: InterfaceModel.PlayerInfo,
                             now: MonotonicInstant) -> TranscriptPlace? {
        guard let cue = currentCue(transcript, player, now: now) else { return nil }
        return TranscriptPlace(cue: cue, page: pages.page(ofCue: cue, in: transcript, atSeconds: player.position(at: now)))
    }

    /// The cue being spoken (or the last one before the position).
    static func currentCue(_ transcript: Transcript, _ player: InterfaceModel.PlayerInfo, now: MonotonicInstant) -> Int? {
        let position = player.position(at: now)
        var last: Int?
        for (index, cue) in transcript.cues.enumerated() where cue.start.seconds <= position { last = index }
        return last
    }

    func canSeek(_ player: InterfaceModel.PlayerInfo) -> Bool {
        player.hasSession && (player.phase == .playing || player.phase == .paused) && player.lengthSeconds > 0
    }

    mutating func previewSeek(_ seconds: Int, _ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        let player = model.player
        guard screen == .player, canSeek(player) else {
            return say(player.hasSession ? "Wait a moment." : "Nothing is playing.", model)
        }
        let from = seekPreview?.fromSeconds ?? player.position(at: now)
        let start = seekPreview?.targetSeconds ?? from
        // Never to the last second: seeking alone never finishes a session (playback policy).
        let target = min(max(0, player.lengthSeconds - 1), max(0, start + Double(seconds)))
        let commitAt = now + Self.seekRest
        if seekPreview == nil {
            lastTickAt = nil
            lastSeekSpokenAt = nil
        }
        seekPreview = SeekPreview(fromSeconds: from, targetSeconds: target, commitAt: commitAt)
        var effects: [InterfaceEffect] = [.scheduleTimer(.seekCommit, at: commitAt)]
        guard model.settings.spokenLabels else { return effects }
        // By ear: a tick for each step, and the target said — at most once a second, so a fast turn
        // ticks along without babbling; where it rests is said when the seek commits.
        if lastTickAt.map({ now - $0 >= Self.tickInterval }) ?? true {
            lastTickAt = now
            effects.append(.cue(.tick))
        }
        if lastSeekSpokenAt.map({ now - $0 >= Self.seekSpeechInterval }) ?? true {
            lastSeekSpokenAt = now
            effects += say(InterfaceText.spokenPosition(target), short: InterfaceText.spokenPositionShort(target), model)
        }
        return effects
    }

    mutating func commitSeek(_ model: InterfaceModel) -> [InterfaceEffect] {
        guard let preview = seekPreview else { return [] }
        seekPreview = nil
        return [.cancelTimer(.seekCommit), .seek(toSeconds: preview.targetSeconds)]
            + say("Moved to \(InterfaceText.spokenPosition(preview.targetSeconds)).",
                  short: "Moved to \(InterfaceText.spokenPositionShort(preview.targetSeconds)).", model)
    }

    mutating func toggleTranscript(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        if seekPreview != nil { return commitSeek(model) }
        if screen == .transcript {
            stack.removeLast()
            transcriptAnchor = nil
            return say(screenAnnouncement(model), model)
        }
        guard screen == .player else { return [] }
        guard model.player.hasSession, model.transcript != nil else {
            return say("This session has no transcript.", model)
        }
        transcriptAnchor = nil
        stack.append(Page(.transcript))
        return say("Transcript.", model)
    }
}
