// A session's page: its title, where its audio is (on this box, downloadable and how big, downloading
// and how far, failed and what to do), the buttons, the description to read, the licence.

extension Canvas {
    mutating func detailScreen(_ id: String) {
        guard let session = model.session(id) else { return libraryScreen() }
        let top = header("\(InterfaceText.themeName(session.theme)) \u{00B7} \(InterfaceText.length(session.durationSeconds))")
        let stripTop = playStrip()
        let viewport = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: stripTop - space.m - top)
        let width = viewport.width
        let actions = Interface.sessionActions(session, player: model.player)
        var blocks = [heroBlock(session, primary: actions.first, width: width, room: viewport.height)]
        for (index, line) in Interface.detailProblems(session).enumerated() {
            blocks.append(readingBlock("detail.problem.\(index)", line, key: .reading(-1 - index), width: width, style: tokens.reading,
                                       color: index == 0 ? palette.attention : palette.textSecondary, gap: index == 0 ? space.m : space.xs))
        }
        for (index, action) in actions.enumerated().dropFirst() {
            blocks.append(buttonBlock("detail.action.\(action.rawValue)", Interface.actionTitle(action, session),
                                      key: .action(action), width: width, gap: index == 1 ? space.m : space.s,
                                      attention: action == .removeDownload))
        }
        let reading = Interface.detailReading(session)
        for (index, sentence) in reading.enumerated() {
            let isLicence = index == reading.count - 1
            blocks.append(readingBlock("detail.reading.\(index)", sentence, key: .reading(index), width: width,
                                       style: isLicence ? type.caption : tokens.reading,
                                       color: isLicence ? palette.textMuted : palette.textSecondary,
                                       gap: index == 0 ? space.l : (isLicence ? space.m : space.xs)))
        }
        list(blocks, in: viewport, focus: focused)
    }

    /// The top of the page, one focus stop: the title, where the audio is, and the first button. The
    /// title steps down the type scale when the whole would not fit the screen at once.
    func heroBlock(_ session: InterfaceModel.SessionItem, primary: SessionAction?, width: Double, room: Double) -> Block {
        let status = statusBlock(session, width: width)
        let button = primary.map { buttonBlock("detail.action.\($0.rawValue)", Interface.actionTitle($0, session),
                                                key: .action($0), width: width, gap: space.m) }
        let fixed = status.gap + status.height + (button.map { $0.gap + $0.height } ?? 0)
        var titleStyle = type.title
        for style in [type.title, type.heading, tokens.rowTitle] {
            titleStyle = style
            if textHeight(session.title, width: width, style: style) + fixed <= room { break }
        }
        let titleHeight = textHeight(session.title, width: width, style: titleStyle)
        let chosen = titleStyle
        return Block(id: "detail.hero", key: primary.map { .action($0) }, height: titleHeight + fixed, gap: 0) { canvas, frame, focused in
            canvas.text("detail.title", session.title, x: frame.x, y: frame.y, width: frame.width, style: chosen,
                        color: canvas.palette.textPrimary)
            var y = frame.y + titleHeight + status.gap
            status.draw(&canvas, Rect(x: frame.x, y: y, width: frame.width, height: status.height), false)
            y += status.height
            if let button {
                y += button.gap
                button.draw(&canvas, Rect(x: frame.x, y: y, width: frame.width, height: button.height), focused)
            }
        }
    }

    /// Where the audio is, in words, with a bar while it downloads.
    func statusBlock(_ session: InterfaceModel.SessionItem, width: Double) -> Block {
        var lines: [(String, Bool)] = [] // text, attention
        var progress: Double?
        let isCurrent = model.player.hasSession && model.player.sessionID == session.id
        if isCurrent {
            // The position only while it stands still: a page that is read does not tick every second.
            let length = model.player.lengthSeconds > 0 ? model.player.lengthSeconds : session.durationSeconds
            let state = InterfaceText.playerState(model.player)
            lines.append((model.player.isPlaying ? "Playing now"
                          : "\(state) \u{00B7} \(TimeText.clock(model.player.position(at: now))) of \(TimeText.clock(length))", false))
        }
        if session.isBundled {
            lines.append(("On this box \u{00B7} plays without a network", false))
        } else if let status = session.download {
            let size = (status.bytesTotal ?? session.downloadBytes).map { ByteCountText.text($0) }
            switch status.state {
            case .available, .cancelled:
                if status.previousCopyOnThisBox {
                    lines.append(("On this box", false))
                } else {
                    lines.append(("Not on this box yet" + (size.map { " \u{00B7} \($0) to download" } ?? ""), false))
                    if status.offer == .remembered { lines.append(("Downloads when the box is online", false)) }
                }
            case .queued:
                lines.append(("Waiting to download" + (size.map { " \u{00B7} \($0)" } ?? ""), false))
                progress = 0
            case .downloading:
                var text = "Downloading"
                if let percent = status.percent, let size { text += " \(percent)% \u{00B7} \(ByteCountText.text(status.bytesDone)) of \(size)" }
                lines.append((text, false))
                progress = Double(status.percent ?? 0) / 100
            case .verifying:
                lines.append(("Checking the download", false))
                progress = 1
            case .onThisBox:
                lines.append(("On this box" + (size.map { " \u{00B7} \($0)" } ?? "") + " \u{00B7} plays without a network", false))
                if status.offer == .withdrawn { lines.append(("No longer offered by its source; remove it when you like", false)) }
            case .failed:
                lines.append(((status.previousCopyOnThisBox ? "Update failed. The earlier copy still plays." : "Download failed."), true))
            }
        }
        let style = type.body
        let heights = lines.map { textHeight($0.0, width: width, style: style) }
        let barSpace = progress == nil ? 0 : space.s + tokens.barHeight
        let height = heights.reduce(0, +) + Double(max(0, lines.count - 1)) * space.xs + barSpace
        return Block(id: "detail.status", key: nil, height: height, gap: space.s) { canvas, frame, _ in
            let p = canvas.palette
            var y = frame.y
            for (index, line) in lines.enumerated() {
                y += canvas.text("detail.status.\(index)", line.0, x: frame.x, y: y, width: frame.width, style: style,
                                 color: line.1 ? p.attention : p.textSecondary) + canvas.space.xs
            }
            if let progress {
                let fraction = (progress * frame.width).rounded(.down) / frame.width
                canvas.add("detail.status.progress", .progress(ProgressBar(
                    frame: Rect(x: frame.x, y: y - canvas.space.xs + canvas.space.s, width: frame.width, height: canvas.tokens.barHeight),
                    fraction: fraction, track: p.track, fill: p.accent)))
            }
        }
    }
}
