// The transcript: the recording's words, the line being spoken lit, following the recording until the
// knob scrolls away (and again once it scrolls back to the lit line). A cue too long for the screen is read
// a page at a time (TranscriptPages): every page fits whole above the PLAY strip, so no word runs under it.
// Only the cues near the reader are measured and laid out, so a transcript of thousands of cues costs a
// frame no more than one of ten.

extension Canvas {
    static let transcriptTitle = "Transcript"
    static let transcriptScrolledTitle = "Transcript \u{00B7} scrolled"
    static let transcriptFollowingHint = "Turn to scroll \u{00B7} press for the circle"
    static let transcriptScrolledHint = "Turn back to the lit line to follow \u{00B7} press for the circle"

    mutating func transcriptScreen() {
        guard let transcript = model.transcript, !transcript.cues.isEmpty, let layout = transcriptLayout(transcript) else {
            return playerScreen()
        }
        let following = ui.transcriptAnchor == nil
        let top = header(following ? Self.transcriptTitle : Self.transcriptScrolledTitle)
        let stripTop = playStrip(nil, hint: following ? Self.transcriptFollowingHint : Self.transcriptScrolledHint)
        let viewport = Rect(x: edge, y: top, width: layout.width, height: stripTop - space.m - top)
        let style = tokens.reading
        let pages = layout.pages
        let current = layout.current
        var blocks: [Block] = []
        for index in layout.window {
            let cuePages = pages.pagesByCue[index] ?? [transcript.cues[index].plainText]
            for (page, words) in cuePages.enumerated() {
                let place = TranscriptPlace(cue: index, page: page)
                let isCurrent = place == current
                let weight: FontWeight = isCurrent ? .medium : style.weight
                let height = textHeight(words, width: viewport.width, style: style, weight: weight)
                let id = cuePages.count == 1 ? "transcript.cue.\(index)" : "transcript.cue.\(index).page.\(page)"
                let color: Color
                if isCurrent {
                    color = palette.textPrimary
                } else if let current, (index, page) < (current.cue, current.page) {
                    color = palette.textMuted
                } else {
                    color = palette.textSecondary
                }
                blocks.append(Block(id: id, key: .transcript(place), height: height, gap: blocks.isEmpty ? 0 : space.s) { canvas, frame, _ in
                    if isCurrent { canvas.marginBar(id + ".bar", frame) }
                    canvas.text(id, words, x: frame.x, y: frame.y, width: frame.width, style: style, color: color, weight: weight)
                })
            }
        }
        list(blocks, in: viewport, focus: .transcript(layout.focus), anchor: .focus(fraction: following ? 0.3 : 0), keepTop: following,
             moreBefore: layout.window.lowerBound > 0, moreAfter: layout.window.upperBound < transcript.cues.count - 1)

        // While playing, the lit page moves on at the next cue's start, or at the current cue's next page.
        if model.player.isPlaying {
            let position = model.player.position(at: now)
            var next = transcript.cues.first { $0.start.seconds > position }?.start.seconds
            if let cue = current?.cue, let turn = pages.nextPageStart(ofCue: cue, in: transcript, atSeconds: position) {
                next = min(next ?? turn, turn)
            }
            if let next { changes(at: now + .nanoseconds(Int64((next - position) * 1e9) + 1_000_000)) }
        }
    }

    /// The transcript as the screen lays it out: the cues near the reader, their pages, the page being
    /// spoken and the page in focus.
    struct TranscriptLayout {
        var width: Double
        var window: ClosedRange<Int>
        var pages: TranscriptPages
        var current: TranscriptPlace?
        var focus: TranscriptPlace
    }

    func transcriptLayout(_ transcript: Transcript) -> TranscriptLayout? {
        guard !transcript.cues.isEmpty else { return nil }
        let room = transcriptPageRoom()
        let currentCue = Interface.currentCue(transcript, model.player, now: now)
        let focusCue = min(max(0, ui.transcriptAnchor?.cue ?? currentCue ?? 0), transcript.cues.count - 1)
        // A page is at least a line tall: no cue further than a screen of lines from the focus can show.
        let reach = room.lines + 1
        let window = max(0, focusCue - reach)...min(transcript.cues.count - 1, focusCue + reach)
        var cut: [Int: [String]] = [:]
        for index in window {
            // Cut with the lit line's weight, the wider one, so a page fits lit or not and stays the same page.
            let pages = owner.pages(transcript.cues[index].plainText, width: room.width, lines: room.lines, style: tokens.reading,
                                    weight: .medium)
            if pages.count > 1 { cut[index] = pages }
        }
        let pages = TranscriptPages(cut)
        let current = currentCue.map {
            TranscriptPlace(cue: $0, page: pages.page(ofCue: $0, in: transcript, atSeconds: model.player.position(at: now)))
        }
        var focus = ui.transcriptAnchor ?? current ?? TranscriptPlace(cue: 0)
        focus.cue = focusCue
        focus.page = min(max(0, focus.page), pages.pageCount(ofCue: focusCue) - 1)
        return TranscriptLayout(width: room.width, window: window, pages: pages, current: current, focus: focus)
    }

    /// The room a page of transcript has: the list's width, and the lines that fit between the taller of
    /// the two headers and the tallest PLAY strip this screen shows — whatever the player does, and whether
    /// the reader follows or has turned away. Pages cut to it fit in every state, and do not change when the
    /// strip's words do.
    func transcriptPageRoom() -> (width: Double, lines: Int) {
        var meanings = [playMeaning().text]
        for phase in [PlayerPhase.playing, .paused, .ended, .failed("")] {
            var variant = model
            variant.player.phase = phase
            variant.player.positionSeconds = max(model.player.positionSeconds, model.player.lengthSeconds)
            meanings.append(Canvas(owner: owner, tokens: tokens, model: variant, ui: ui, now: now).playMeaning().text)
        }
        var strip = 0.0
        for meaning in meanings {
            for hint in [Self.transcriptFollowingHint, Self.transcriptScrolledHint] { strip = max(strip, stripHeight(meaning, hint: hint)) }
        }
        let top = max(headerBottom(Self.transcriptTitle), headerBottom(Self.transcriptScrolledTitle))
        let height = screenHeight - space.m - strip - space.m - top
        let lines = Int((height / tokens.reading.linePitch + 0.001).rounded(.down))
        return (screenWidth - 2 * edge, max(1, lines))
    }
}

extension InterfaceScene {
    /// The pages of the transcript's cues near the reader, as the transcript screen cuts them on a screen of
    /// `size`: the daemon puts them in the model (`InterfaceModel.transcriptPages`), so the knob steps
    /// through a long cue a page at a time and speaks the page it lands on.
    public func transcriptPages(_ interface: Interface, model: InterfaceModel, size: PixelSize, now: MonotonicInstant) -> TranscriptPages {
        guard let transcript = model.transcript else { return TranscriptPages() }
        let tokens = DesignTokens(appearance: interface.appearance(model), screen: size, textSize: model.settings.textSize)
        let canvas = Canvas(owner: self, tokens: tokens, model: model, ui: interface, now: now)
        return canvas.transcriptLayout(transcript)?.pages ?? TranscriptPages()
    }
}
