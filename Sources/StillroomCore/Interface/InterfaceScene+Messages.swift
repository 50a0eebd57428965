// Screens that ask or tell: a confirmation, a notice with what to do, the resume offer after a restart,
// and the resting clock face.

extension Canvas {
    mutating func confirmScreen(_ question: Confirmation) {
        let texts = ConfirmText.of(question, model: model)
        let name: String = switch question {
        case .deleteAllHistory: "Delete history"
        case .deleteRun: "Delete an entry"
        case .removeDownload: "Remove a download"
        }
        let top = header(name)
        // A moment's question: no PLAY strip here, so the question, what it means and both answers fit.
        let viewport = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: screenHeight - space.m - top)
        let width = viewport.width
        let keep = buttonBlock("confirm.keep", texts.keep, key: .keep, width: width, gap: space.l)
        let confirm = buttonBlock("confirm.confirm", texts.confirm, key: .confirm, width: width, gap: space.s, attention: true)
        // The question, what it means and "Keep" are one stop, seen together; the type steps down to fit.
        var question = paragraph("confirm.question", texts.question, width: width, style: type.heading, color: palette.textPrimary, gap: 0)
        var detail = paragraph("confirm.detail", texts.detail, width: width, style: tokens.reading, color: palette.textSecondary, gap: space.s)
        for (questionStyle, detailStyle) in [(type.heading, tokens.reading), (tokens.rowTitle, tokens.reading), (tokens.rowTitle, type.caption)] {
            question = paragraph("confirm.question", texts.question, width: width, style: questionStyle, color: palette.textPrimary, gap: 0)
            detail = paragraph("confirm.detail", texts.detail, width: width, style: detailStyle, color: palette.textSecondary, gap: space.s)
            if question.height + detail.gap + detail.height + keep.gap + keep.height + confirm.gap + confirm.height <= viewport.height { break }
        }
        let parts = [question, detail, keep]
        let height = parts.reduce(0.0) { $0 + $1.gap + $1.height }
        let hero = Block(id: "confirm.hero", key: .keep, height: height, gap: 0) { canvas, frame, focused in
            var y = frame.y
            for part in parts {
                y += part.gap
                part.draw(&canvas, Rect(x: frame.x, y: y, width: frame.width, height: part.height), focused)
                y += part.height
            }
        }
        list([hero, confirm], in: viewport, focus: focused, anchor: .focus(fraction: 0.8))
    }

    mutating func noticeScreen(_ id: Int64) {
        guard let notice = model.notices.first(where: { $0.id == id }) else { return libraryScreen() }
        let top = header("Notice")
        let stripTop = playStrip()
        let viewport = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: stripTop - space.m - top)
        let width = viewport.width
        var blocks = [paragraph("notice.heading", InterfaceText.noticeHeading(notice.kind), width: width, style: type.heading,
                                color: palette.attention, gap: 0)]
        for (index, sentence) in Interface.noticeReading(notice).enumerated() {
            blocks.append(readingBlock("notice.reading.\(index)", sentence, key: .reading(index), width: width, style: tokens.reading,
                                       color: palette.textSecondary, gap: index == 0 ? space.s : space.xs))
        }
        blocks.append(buttonBlock("notice.dismiss", "Dismiss", key: .dismiss, width: width, gap: space.l))
        blocks.append(paragraph("notice.later", "BACK keeps it for later", width: width, style: type.caption,
                                color: palette.textSecondary, gap: space.s))
        list(blocks, in: viewport, focus: focused, anchor: .focus(fraction: 0.9))
    }

    /// "Resume <title> at 12:34?" after a restart: PLAY (or the knob) resumes, BACK says not now. It
    /// has no focus to scroll with, so it fits the screen whole: the type steps down until it does.
    mutating func resumeOfferScreen() {
        guard let offer = model.player.resumeOffer else { return }
        let top = header("Welcome back")
        let width = screenWidth - 2 * edge
        let room = screenHeight - space.m - top
        let length = model.session(offer.position.sessionID)?.durationSeconds ?? 0
        let at = offer.position.seconds
        let whereText = length > 0 ? "at \(TimeText.clock(at)) of \(TimeText.clock(length))" : "at \(TimeText.clock(at))"
        let icon = tokens.stripIcon
        let answers: [(id: String, text: String, play: Bool)] = [("resume.yes", "PLAY or press the knob to resume", true),
                                                                ("resume.no", "BACK: not now (the saved place is let go)", false)]
        var answerStyle = type.body
        answerStyle.weight = .medium
        var caption = type.caption
        caption.weight = .medium
        let options: [(TextStyle, TextStyle, Bool)] = [(type.title, tokens.rowTitle, true), (type.heading, answerStyle, true),
                                                      (tokens.rowTitle, answerStyle, true), (tokens.rowTitle, caption, false)]
        var blocks: [Block] = []
        for (titleStyle, style, withQuestion) in options {
            blocks = []
            if withQuestion {
                blocks.append(paragraph("resume.question", "Pick up where you stopped?", width: width, style: type.body,
                                        color: palette.textSecondary, gap: 0))
            }
            blocks.append(paragraph("resume.title", offer.title, width: width, style: titleStyle, color: palette.textPrimary,
                                    gap: withQuestion ? space.xs : 0))
            let whereHeight = textHeight(whereText, width: width, style: type.numeric)
            blocks.append(Block(id: "resume.where", key: nil, height: whereHeight + space.s + tokens.barHeight, gap: space.s) { canvas, frame, _ in
                let p = canvas.palette
                canvas.text("resume.where", whereText, x: frame.x, y: frame.y, width: frame.width, style: canvas.type.numeric,
                            color: p.textSecondary, tabular: true)
                if length > 0 {
                    let fraction = (min(1, at / length) * frame.width).rounded(.down) / frame.width
                    canvas.add("resume.progress", .progress(ProgressBar(
                        frame: Rect(x: frame.x, y: frame.y + whereHeight + canvas.space.s, width: frame.width, height: canvas.tokens.barHeight),
                        fraction: fraction, track: p.track, fill: p.accent)))
                }
            })
            for (index, answer) in answers.enumerated() {
                let textWidth = width - icon - space.m
                let height = max(icon, textHeight(answer.text, width: textWidth, style: style))
                blocks.append(Block(id: answer.id, key: nil, height: height, gap: index == 0 ? space.l : space.m) { canvas, frame, _ in
                    let p = canvas.palette
                    let center = Point(x: frame.x + icon / 2, y: frame.y + frame.height / 2)
                    if answer.play {
                        canvas.add(answer.id + ".button", .circle(CircleShape(center: center, radius: icon / 2, fill: p.controlFill,
                                                                              stroke: p.controlRim.map { Stroke($0, width: canvas.tokens.hairline) })))
                        canvas.playGlyph(answer.id + ".icon", center: center, size: icon, playing: false, color: p.controlIcon)
                    } else {
                        canvas.add(answer.id + ".button", .circle(CircleShape(center: center, radius: icon / 2,
                                                                              stroke: Stroke(p.track, width: canvas.tokens.hairline))))
                        canvas.chevron(answer.id + ".icon", center: Point(x: center.x - icon / 24, y: center.y), size: icon / 3,
                                       direction: 2, color: p.textSecondary)
                    }
                    let h = canvas.textHeight(answer.text, width: textWidth, style: style)
                    canvas.text(answer.id + ".text", answer.text, x: frame.x + icon + canvas.space.m, y: frame.y + (frame.height - h) / 2,
                                width: textWidth, style: style, color: answer.play ? p.textPrimary : p.textSecondary)
                })
            }
            let total = blocks.reduce(0.0) { $0 + $1.gap + $1.height }
            if total <= room { break }
        }
        list(blocks, in: Rect(x: edge, y: top, width: width, height: room), focus: nil)
    }

    /// The resting face: the time, the date, today's minutes and the next reminder, dim and large
    /// enough to read from the pillow; what PLAY does along the bottom.
    mutating func idleScreen() {
        let stripTop = playStrip(quiet: true)
        let width = screenWidth - 2 * edge
        var items: [(String, String, TextStyle, Color, Bool)] = [] // id, text, style, colour, tabular
        if let clock = model.clock {
            items.append(("idle.clock", clock.text, tokens.clockFace, palette.textSecondary, true))
            items.append(("idle.date", clock.dateText, type.body, palette.textSecondary, false))
            var line = model.todayMinutes > 0 ? "\(InterfaceText.minutesText(model.todayMinutes)) practised today" : "No practice yet today"
            if let reminder = model.nextReminder { line += " \u{00B7} reminder \(reminder)" }
            items.append(("idle.today", line, type.caption, palette.textSecondary, false))
        } else {
            items.append(("idle.name", "Stillroom", type.title, palette.textSecondary, false))
            items.append(("idle.unset", "The clock is not set yet", type.caption, palette.textSecondary, false))
        }
        let heights = items.map { textHeight($0.1, width: width, style: $0.2) }
        let gaps = Double(items.count - 1) * space.s
        let total = heights.reduce(0, +) + gaps
        var y = ((stripTop - total) / 2).rounded()
        for (index, item) in items.enumerated() {
            y += text(item.0, item.1, x: edge, y: max(space.m, y), width: width, style: item.2, color: item.3, alignment: .center,
                      tabular: item.4) + space.s
            _ = index
        }
    }
}
