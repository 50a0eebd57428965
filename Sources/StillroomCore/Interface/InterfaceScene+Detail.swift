// A session's page: its title, where its audio is (on this box, downloadable and how big, downloading
// and how far, failed and what to do), the buttons, the description to read, the licence.

extension Canvas {
    mutating func detailScreen(_ id: String) {
        guard let session = model.session(id) else { return libraryScreen() }
        let top = header("\(InterfaceText.themeName(session.theme)) \u{00B7} \(InterfaceText.length(session.durationSeconds))")
        let stripTop = playStrip()
        let viewport = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: stripTop - space.m - top)
        let width = viewport.width
        var blocks: [Block] = []
        blocks.append(paragraph("detail.title", session.title, width: width, style: type.title, color: palette.textPrimary, gap: 0))
        blocks.append(statusBlock(session, width: width))
        for (index, action) in Interface.sessionActions(session, player: model.player).enumerated() {
            blocks.append(buttonBlock("detail.action.\(action.rawValue)", Interface.actionTitle(action, session),
                                      key: .action(action), width: width, gap: index == 0 ? space.m : space.s,
                                      attention: action == .removeDownload))
        }
        for (index, sentence) in Interface.detailReading(session).enumerated() {
            let isLicence = index == Interface.detailReading(session).count - 1
            blocks.append(readingBlock("detail.reading.\(index)", sentence, key: .reading(index), width: width,
                                       style: isLicence ? type.caption : tokens.reading,
                                       color: isLicence ? palette.textMuted : palette.textSecondary,
                                       gap: index == 0 ? space.l : (isLicence ? space.m : space.xs)))
        }
        list(blocks, in: viewport, focus: focused)
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
                }
            case .queued:
                lines.append(("Waiting to download" + (size.map { " \u{00B7} \($0)" } ?? ""), false))
                progress = 0
            case .downloading:
                var text = "Downloading"
                if let percent = status.percent, let size { text += " \(percent)% \u{00B7} \(ByteCountText.text(status.bytesDone)) of \(size)" }
                lines.append((text, false))
                if let failure = status.failure, status.retryAt != nil {
                    lines.append(("\(failure.reason) Trying again soon.", true))
                }
                progress = Double(status.percent ?? 0) / 100
            case .verifying:
                lines.append(("Checking the download", false))
                progress = 1
            case .onThisBox:
                lines.append(("On this box" + (size.map { " \u{00B7} \($0)" } ?? "") + " \u{00B7} plays without a network", false))
            case .failed:
                lines.append(((status.previousCopyOnThisBox ? "Update failed. The earlier copy still plays." : "Download failed."), true))
                if let failure = status.failure {
                    lines.append((failure.reason, true))
                    lines.append(("What to do: " + failure.advice, false))
                }
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
