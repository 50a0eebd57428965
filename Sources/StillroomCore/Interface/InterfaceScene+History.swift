// Practice history: the month with its practised days, the totals (and, if wanted, the days in a row),
// the recent sessions, and the way to delete it all. Honest numbers, no guilt.

extension Canvas {
    mutating func historyScreen() {
        let top = header("Practice")
        let stripTop = playStrip()
        let viewport = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: stripTop - space.m - top)
        let history = model.history
        // Wide screens: the calendar at the left, the numbers and recent sessions beside it.
        let wideCell = (type.numeric.size * 2.2).rounded()
        let wide = history.month != nil && viewport.width >= 7 * wideCell + space.xl + 12 * type.body.size
        let calendarWidth = wide ? 7 * wideCell : viewport.width
        var left: [Block] = []
        if let month = history.month {
            left += calendarBlocks(month, width: calendarWidth, cell: wide ? wideCell : nil)
        } else {
            left.append(readingBlock("history.calendar", "The calendar appears once the box knows the date.", key: .calendar,
                                     width: calendarWidth, style: tokens.reading, color: palette.textSecondary, gap: 0))
        }
        let rightX = wide ? viewport.x + calendarWidth + space.xl : viewport.x
        let rightWidth = viewport.maxX - rightX
        var right: [Block] = [totalsBlock(width: rightWidth, gap: wide ? 0 : space.m)]
        if !history.isEmpty {
            right.append(paragraph("history.recent", "RECENT", width: rightWidth, style: type.label, color: palette.textMuted, gap: space.l))
            for (index, run) in history.recent.enumerated() { right.append(runRow(run, index: index, width: rightWidth)) }
            right.append(buttonBlock("history.delete", "Delete practice history", key: .deleteHistory, width: rightWidth,
                                     gap: space.l, attention: true))
        }
        if wide {
            list(left, in: Rect(x: viewport.x, y: viewport.y, width: calendarWidth, height: viewport.height), focus: focused)
            list(right, in: Rect(x: rightX, y: viewport.y, width: rightWidth, height: viewport.height), focus: focused,
                 chevronID: "list.right")
        } else {
            list(left + right, in: viewport, focus: focused)
        }
    }

    /// The month's heading with the weekday initials, then one block per week.
    func calendarBlocks(_ month: PracticeMonth, width: Double, cell: Double? = nil) -> [Block] {
        let cellStyle = type.caption
        let cellWidth = cell ?? min((width / 7).rounded(.down), (type.numeric.size * 2.8).rounded())
        let cellHeight = (max(cellStyle.linePitch + 2 * space.s, cellWidth * 0.62)).rounded()
        let titleStyle = tokens.rowTitle
        let title = InterfaceText.monthTitle(month.month)
        let summary = "\(month.practisedDayCount == 1 ? "1 day" : "\(month.practisedDayCount) days") \u{00B7} "
            + "\(InterfaceText.minutesText(month.amount.wholeMinutes)) this month"
        let titleHeight = textHeight(title, width: width, style: titleStyle)
        let summaryHeight = textHeight(summary, width: width, style: type.caption)
        let initials = ["M", "T", "W", "T", "F", "S", "S"]
        let headHeight = titleHeight + space.xs + summaryHeight + space.m + cellStyle.linePitch
        var blocks = [Block(id: "history.month", key: .calendar, height: headHeight, gap: 0) { canvas, frame, focused in
            let p = canvas.palette
            var y = frame.y
            y += canvas.text("history.month.title", title, x: frame.x, y: y, width: frame.width, style: titleStyle, color: p.textPrimary)
            y += canvas.space.xs
            y += canvas.text("history.month.summary", summary, x: frame.x, y: y, width: frame.width, style: canvas.type.caption,
                             color: p.textSecondary)
            y += canvas.space.m
            for (index, letter) in initials.enumerated() {
                canvas.text("history.month.day.\(index)", letter, x: frame.x + Double(index) * cellWidth, y: y, width: cellWidth,
                            style: cellStyle, color: p.textMuted, weight: .semibold, alignment: .center)
            }
        }]
        let today = model.history.today
        for (index, week) in HistoryText.weeks(month).enumerated() {
            let id = "history.week.\(index)"
            blocks.append(Block(id: id, key: .week(index), height: cellHeight, gap: 0) { canvas, frame, focused in
                let p = canvas.palette
                if focused {
                    canvas.rect(id + ".focus", Rect(x: frame.x, y: frame.y + 1, width: 7 * cellWidth, height: frame.height - 2),
                                radius: canvas.tokens.radii.small, stroke: Stroke(p.accent, width: canvas.tokens.focusRing))
                }
                for (column, day) in week.enumerated() {
                    guard let day else { continue }
                    let center = Point(x: frame.x + (Double(column) + 0.5) * cellWidth, y: frame.center.y)
                    let radius = (min(cellWidth, cellHeight) / 2 - canvas.space.xs - canvas.tokens.focusRing).rounded(.down)
                    let cell = "\(id).\(column)"
                    if day.practised {
                        canvas.add(cell + ".mark", .circle(CircleShape(center: center, radius: radius, fill: p.accent)))
                    } else if day.day == today {
                        canvas.add(cell + ".today", .circle(CircleShape(center: center, radius: radius,
                                                                        stroke: Stroke(p.textSecondary, width: canvas.tokens.hairline))))
                    }
                    canvas.text(cell, "\(day.day.day)", x: center.x - cellWidth / 2, y: center.y - cellStyle.linePitch / 2,
                                width: cellWidth, style: cellStyle,
                                color: day.practised ? p.onAccent : (day.day == today ? p.textPrimary : p.textSecondary),
                                weight: day.practised || day.day == today ? .semibold : cellStyle.weight, alignment: .center,
                                tabular: true)
                }
            })
        }
        return blocks
    }

    /// All-time totals, and the days in a row when the owner wants them shown.
    func totalsBlock(width: Double, gap: Double) -> Block {
        let totals = model.history.totals
        var lines = ["All time: \(InterfaceText.minutesText(totals.allTime.wholeMinutes)) \u{00B7} "
                     + "\(totals.allTime.runCount == 1 ? "1 session" : "\(totals.allTime.runCount) sessions"), "
                     + "\(totals.allTime.completedRunCount) finished"]
        if model.history.isEmpty { lines = ["No practice yet. After you listen, the minutes you really heard appear here."] }
        if let streak = HistoryText.streakText(model) { lines.append(streak) }
        if let silent = HistoryText.silentText(model) { lines.append(silent) }
        if totals.undatedRunCount > 0 {
            lines.append("\(totals.undatedRunCount == 1 ? "1 session" : "\(totals.undatedRunCount) sessions") from before the clock was set")
        }
        let style = type.body
        let heights = lines.map { textHeight($0, width: width, style: style) }
        let height = heights.reduce(0, +) + Double(lines.count - 1) * space.xs
        return Block(id: "history.totals", key: .totals, height: height, gap: gap) { canvas, frame, focused in
            var y = frame.y
            for (index, line) in lines.enumerated() {
                y += canvas.text("history.totals.\(index)", line, x: frame.x, y: y, width: frame.width, style: style,
                                 color: index == 0 ? canvas.palette.textPrimary : canvas.palette.textSecondary) + canvas.space.xs
            }
            if focused {
                canvas.rect("history.totals.focus", Rect(x: frame.x - canvas.space.s, y: frame.y - canvas.space.xs,
                                                        width: frame.width + 2 * canvas.space.s, height: frame.height + 2 * canvas.space.xs),
                            radius: canvas.tokens.radii.small, stroke: Stroke(canvas.palette.accent, width: canvas.tokens.focusRing))
            }
        }
    }

    /// One recent session: its title, and when, how long, whether finished.
    func runRow(_ run: RecentSession, index: Int, width: Double) -> Block {
        let pad = tokens.cardPadding
        let inner = width - 2 * pad.horizontal
        let title = model.session(run.sessionID)?.title ?? "A session no longer in the library"
        let line = HistoryText.runLine(run)
        let titleHeight = textHeight(title, width: inner, style: tokens.rowTitle)
        let lineHeight = textHeight(line, width: inner, style: type.caption)
        let height = 2 * pad.vertical + titleHeight + space.xs + lineHeight
        let key = FocusKey.run(id: run.runID ?? -Int64(index + 1))
        let id = "history.run.\(index)"
        return Block(id: id, key: key, height: height, gap: space.s) { canvas, frame, focused in
            let p = canvas.palette
            canvas.rect(id, frame, radius: canvas.tokens.radii.medium, fill: p.surface)
            if focused { canvas.focusRing(id + ".ring", frame, radius: canvas.tokens.radii.medium) }
            var y = frame.y + pad.vertical
            y += canvas.text(id + ".title", title, x: frame.x + pad.horizontal, y: y, width: inner, style: canvas.tokens.rowTitle,
                             color: p.textPrimary)
            canvas.text(id + ".line", line, x: frame.x + pad.horizontal, y: y + canvas.space.xs, width: inner,
                        style: canvas.type.caption, color: p.textSecondary)
        }
    }
}
