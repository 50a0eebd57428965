// The transcript: the recording's words, the line being spoken lit, following the recording until the
// knob scrolls away (and again once it scrolls back to the lit line).

extension Canvas {
    mutating func transcriptScreen() {
        guard let transcript = model.transcript, !transcript.cues.isEmpty else { return playerScreen() }
        let following = ui.transcriptAnchor == nil
        let top = header(following ? "Transcript" : "Transcript \u{00B7} scrolled")
        let hint = following ? "Turn to scroll \u{00B7} press for the circle"
            : "Turn back to the lit line to follow \u{00B7} press for the circle"
        let stripTop = playStrip(nil, hint: hint)
        let viewport = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: stripTop - space.m - top)
        let current = Interface.currentCue(transcript, model.player, now: now)
        let style = tokens.reading
        var blocks: [Block] = []
        for (index, cue) in transcript.cues.enumerated() {
            let words = cue.plainText
            let isCurrent = index == current
            let weight: FontWeight = isCurrent ? .medium : style.weight
            let height = textHeight(words, width: viewport.width, style: style, weight: weight)
            let id = "transcript.cue.\(index)"
            let color: Color
            if isCurrent {
                color = palette.textPrimary
            } else if let current, index < current {
                color = palette.textMuted
            } else {
                color = palette.textSecondary
            }
            blocks.append(Block(id: id, key: .reading(index), height: height, gap: index == 0 ? 0 : space.s) { canvas, frame, _ in
                if isCurrent { canvas.marginBar(id + ".bar", frame) }
                canvas.text(id, words, x: frame.x, y: frame.y, width: frame.width, style: style, color: color, weight: weight)
            })
        }
        let anchor = ui.transcriptAnchor ?? current ?? 0
        list(blocks, in: viewport, focus: .reading(anchor), anchor: .focus(fraction: following ? 0.3 : 0), keepTop: following)

        // While playing, the lit line moves on at the next cue's start or the current cue's end.
        if model.player.isPlaying {
            let position = model.player.position(at: now)
            var next: Double?
            for cue in transcript.cues {
                let start = cue.start.seconds
                if start > position { next = start; break }
            }
            if let next { changes(at: now + .nanoseconds(Int64((next - position) * 1e9) + 1_000_000)) }
        }
    }
}
