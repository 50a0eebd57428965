// Home: the library with its filter, notices, session cards, the way to history and settings, and the
// PLAY strip. Also the downloads list, which shows the same cards.

extension Canvas {
    mutating func libraryScreen() {
        let top = header("Library")
        let stripTop = playStrip()
        let viewport = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: stripTop - space.m - top)
        var blocks: [Block] = []
        let width = viewport.width
        for notice in model.notices { blocks.append(noticeCard(notice, width: width)) }
        blocks.append(filterChips(width: width, gap: blocks.isEmpty ? 0 : space.s))
        let shown = Interface.librarySessions(model, filter: ui.filter)
        for session in shown { blocks.append(sessionCard(session, width: width, idPrefix: "library")) }
        if shown.isEmpty { blocks += emptyLibrary(width: width) }
        if Interface.showsTimerCard(ui.filter) {
            blocks.append(linkCard("library.timer", key: .timerLink, title: "Breathing timer",
                                   detail: TimerText.summary(model.settings), width: width, gap: space.s))
        }
        blocks.append(linkCard("library.history", key: .historyLink, title: "Practice history",
                               detail: historyLinkDetail(), width: width, gap: space.m))
        blocks.append(linkCard("library.settings", key: .settingsLink, title: "Settings",
                               detail: "Text size, night display, reminder, downloads", width: width, gap: space.s))
        list(blocks, in: viewport, focus: focused)
    }

    func historyLinkDetail() -> String {
        var parts: [String] = []
        if model.clock != nil { parts.append("\(InterfaceText.minutesText(model.todayMinutes)) today") }
        if let month = model.history.totals.thisMonth { parts.append("\(InterfaceText.minutesText(month.wholeMinutes)) this month") }
        if parts.isEmpty { parts.append("\(InterfaceText.minutesText(model.history.totals.allTime.wholeMinutes)) in all") }
        return parts.joined(separator: " \u{00B7} ")
    }

    /// The filter chips, wrapped onto as many rows as they need; the chosen one filled.
    func filterChips(width: Double, gap: Double) -> Block {
        let style = type.caption
        let padX = space.m, padY = max(space.xs, (space.s * 0.75).rounded())
        let chipHeight = style.linePitch + 2 * padY
        let rowGap = space.s
        var placed: [(LibraryFilter, Rect)] = []
        var x = 0.0, y = 0.0
        let ring = tokens.focusRing + 1
        for filter in LibraryFilter.allCases {
            let label = InterfaceText.filterName(filter)
            let chipWidth = min(width - 2 * ring, textWidth(label, style: style, weight: .semibold) + 2 * padX)
            if x > 0 && x + chipWidth > width - ring {
                x = 0
                y += chipHeight + rowGap
            }
            placed.append((filter, Rect(x: x + ring, y: y + ring, width: chipWidth, height: chipHeight)))
            x += chipWidth + space.s
        }
        let height = y + chipHeight + 2 * ring
        let selected = ui.filter
        return Block(id: "library.filter", key: .filter, height: height, gap: gap) { canvas, frame, focused in
            let p = canvas.palette
            for (filter, box) in placed {
                let chip = Rect(x: frame.x + box.x, y: frame.y + box.y, width: box.width, height: box.height)
                let isOn = filter == selected
                let id = "library.filter.\(filter.rawValue)"
                canvas.rect(id, chip, radius: chip.height / 2, fill: isOn ? p.accent : nil,
                            stroke: isOn ? nil : Stroke(p.track, width: canvas.tokens.hairline))
                if isOn && focused { canvas.focusRing(id + ".ring", chip, radius: chip.height / 2) }
                canvas.text(id + ".text", InterfaceText.filterName(filter), x: chip.x + padX / 2, y: chip.y + padY,
                            width: chip.width - padX, style: style, color: isOn ? p.onAccent : p.textSecondary,
                            weight: .semibold, alignment: .center)
            }
        }
    }

    /// A session's card: title, then length · theme · where the audio is; a bar while downloading.
    func sessionCard(_ session: InterfaceModel.SessionItem, width: Double, idPrefix: String, gap: Double? = nil,
                     offered: Bool = false) -> Block {
        let pad = tokens.cardPadding
        let inner = width - 2 * pad.horizontal
        let titleStyle = tokens.rowTitle, metaStyle = type.caption
        let meta = InterfaceText.cardMeta(session)
        let titleHeight = textHeight(session.title, width: inner, style: titleStyle)
        let metaHeight = textHeight(meta, width: inner, style: metaStyle)
        var progress: Double?
        if let status = session.download, status.state == .downloading || status.state == .queued || status.state == .verifying {
            progress = Double(status.percent ?? 0) / 100
        }
        let barSpace = progress == nil ? 0 : space.s + tokens.barHeight
        let height = pad.vertical * 2 + titleHeight + space.xs + metaHeight + barSpace
        let id = "\(idPrefix).session.\(session.id)"
        let failed = session.download?.state == .failed && !session.isPlayable
        return Block(id: id, key: .session(id: session.id), height: height, gap: gap ?? space.s) { canvas, frame, focused in
            let p = canvas.palette
            canvas.rect(id, frame, radius: canvas.tokens.radii.medium, fill: p.surface)
            if focused { canvas.focusRing(id + ".ring", frame, radius: canvas.tokens.radii.medium) }
            var y = frame.y + pad.vertical
            y += canvas.text(id + ".title", session.title, x: frame.x + pad.horizontal, y: y, width: inner, style: titleStyle,
                             color: p.textPrimary)
            y += canvas.space.xs
            y += canvas.text(id + ".meta", meta, x: frame.x + pad.horizontal, y: y, width: inner, style: metaStyle,
                             color: failed ? p.attention : p.textSecondary)
            if let progress {
                let fraction = (progress * inner).rounded(.down) / inner
                canvas.add(id + ".progress", .progress(ProgressBar(
                    frame: Rect(x: frame.x + pad.horizontal, y: y + canvas.space.s, width: inner, height: canvas.tokens.barHeight),
                    fraction: fraction, track: p.track, fill: p.accent)))
            }
        }
    }

    /// A way to another screen: a title, a line under it, and a chevron.
    func linkCard(_ id: String, key: FocusKey, title: String, detail: String, width: Double, gap: Double) -> Block {
        let pad = tokens.cardPadding
        let chevronSize = max(8, (space.s * 1.5).rounded())
        let inner = width - 2 * pad.horizontal - chevronSize - space.m
        let titleHeight = textHeight(title, width: inner, style: tokens.rowTitle)
        let detailHeight = textHeight(detail, width: inner, style: type.caption)
        let height = 2 * pad.vertical + titleHeight + space.xs + detailHeight
        return Block(id: id, key: key, height: height, gap: gap) { canvas, frame, focused in
            let p = canvas.palette
            canvas.rect(id, frame, radius: canvas.tokens.radii.medium, stroke: Stroke(p.track, width: canvas.tokens.hairline))
            if focused { canvas.focusRing(id + ".ring", frame, radius: canvas.tokens.radii.medium) }
            var y = frame.y + pad.vertical
            y += canvas.text(id + ".title", title, x: frame.x + pad.horizontal, y: y, width: inner, style: canvas.tokens.rowTitle,
                             color: p.textPrimary)
            canvas.text(id + ".detail", detail, x: frame.x + pad.horizontal, y: y + canvas.space.xs, width: inner,
                        style: canvas.type.caption, color: p.textSecondary)
            canvas.chevron(id + ".chevron", center: Point(x: frame.maxX - pad.horizontal - chevronSize / 2, y: frame.center.y),
                           size: chevronSize, direction: 0, color: p.textSecondary)
        }
    }

    /// A notice on the library: what happened, and that the knob opens it.
    func noticeCard(_ notice: InterfaceModel.Notice, width: Double) -> Block {
        let pad = tokens.cardPadding
        let bar = max(3, tokens.hairline * 2)
        let inner = width - 2 * pad.horizontal - bar - space.s
        let heading = InterfaceText.noticeHeading(notice.kind)
        let detail = "Press the knob to read what to do"
        let headingHeight = textHeight(heading, width: inner, style: tokens.rowTitle)
        let detailHeight = textHeight(detail, width: inner, style: type.caption)
        let height = 2 * pad.vertical + headingHeight + space.xs + detailHeight
        let id = "library.notice.\(notice.id)"
        return Block(id: id, key: .notice(id: notice.id), height: height, gap: space.s) { canvas, frame, focused in
            let p = canvas.palette
            canvas.rect(id, frame, radius: canvas.tokens.radii.medium, fill: p.surface)
            if focused { canvas.focusRing(id + ".ring", frame, radius: canvas.tokens.radii.medium) }
            canvas.rect(id + ".bar", Rect(x: frame.x + pad.horizontal, y: frame.y + pad.vertical, width: bar,
                                          height: frame.height - 2 * pad.vertical), radius: bar / 2, fill: p.attention)
            let x = frame.x + pad.horizontal + bar + canvas.space.s
            var y = frame.y + pad.vertical
            y += canvas.text(id + ".heading", heading, x: x, y: y, width: inner, style: canvas.tokens.rowTitle, color: p.attention)
            canvas.text(id + ".detail", detail, x: x, y: y + canvas.space.xs, width: inner, style: canvas.type.caption,
                        color: p.textSecondary)
        }
    }

    /// When a filter shows nothing: why, and the bundled session still on offer.
    func emptyLibrary(width: Double) -> [Block] {
        let why: String
        switch ui.filter {
        case .favourites: why = "No favourites yet. Hold the knob on a session to keep it here."
        case .onThisBox: why = "Nothing is on this box under this filter."
        case .all: why = "No sessions are on this box. A maintainer can check the content with stillroomctl doctor."
        default: why = "No \(InterfaceText.filterName(ui.filter).lowercased()) sessions on this box yet."
        }
        var blocks = [paragraph("library.empty", why, width: width, style: tokens.reading, color: palette.textSecondary, gap: space.m)]
        if let offered = Interface.offeredSession(model, filter: ui.filter) {
            blocks.append(paragraph("library.empty.offer", "This one is ready to play:", width: width, style: type.caption,
                                    color: palette.textSecondary, gap: space.s))
            blocks.append(sessionCard(offered, width: width, idPrefix: "library.offered", gap: space.s, offered: true))
        }
        return blocks
    }

    mutating func downloadsScreen() {
        let top = header("Downloads")
        let stripTop = playStrip()
        let viewport = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: stripTop - space.m - top)
        let remote = model.sessions.filter { !$0.isBundled }
        var blocks: [Block] = []
        if remote.isEmpty {
            blocks.append(paragraph("downloads.empty", "No sessions are offered for download. A maintainer can add a download "
                                    + "source with stillroomctl; bundled sessions always play.",
                                    width: viewport.width, style: tokens.reading, color: palette.textSecondary, gap: 0))
        } else {
            let onBox = remote.filter(\.isPlayable)
            let bytes = onBox.compactMap { $0.download?.bytesTotal ?? $0.downloadBytes }.reduce(0, +)
            let summary = onBox.isEmpty ? "None of these are on this box yet. Press the knob on one to see it and download it."
                : "\(onBox.count) of \(remote.count) on this box, using \(ByteCountText.text(bytes))."
            blocks.append(paragraph("downloads.summary", summary, width: viewport.width, style: type.caption,
                                    color: palette.textSecondary, gap: 0))
            for session in remote { blocks.append(sessionCard(session, width: viewport.width, idPrefix: "downloads")) }
        }
        list(blocks, in: viewport, focus: focused)
    }
}
