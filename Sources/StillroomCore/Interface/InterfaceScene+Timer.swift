// The silent breathing timer: its set-up (Start, the length, the pattern with what it is for) and the
// running screen (the circle following the pattern, the phase, the time left, what PLAY and BACK do).
// The running screen is a pure function of the timer's start instant, its pattern and `now`: a frame
// drawn after the screen was dark shows the breath where it is. See docs/routine.md.

extension Canvas {
    // MARK: Set-up

    mutating func timerSetupScreen() {
        let top = header("Breathing timer")
        let stripTop = playStrip()
        let viewport = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: stripTop - space.m - top)
        let width = viewport.width
        let settings = model.settings
        let pattern = TimerText.patternName(settings.timerPattern)
        let editing = ui.timerMinutesEdit != nil
        let minutes = TimerText.minutes(ui.timerMinutesEdit ?? settings.timerMinutes)
        let length = valueRow("timer.length", key: .timerLength, title: "Length", value: InterfaceText.minutesText(minutes),
                              editing: editing, hint: editing ? TimerText.lengthEditingHint : TimerText.lengthHint,
                              width: width, gap: space.m, focused: focused == .timerLength)
        let patternRow = valueRow("timer.pattern", key: .timerPattern, title: "Pattern", value: TimerText.displayName(pattern),
                                  editing: false, detail: TimerText.explanation(pattern), hint: TimerText.patternHint,
                                  width: width, gap: space.xs, focused: focused == .timerPattern)
        list([timerHero(width: width, room: viewport.height), length, patternRow], in: viewport, focus: focused)
    }

    /// What the timer is, and Start: one stop, seen together. The words step down (and last go) where
    /// the screen is short, so Start always shows.
    func timerHero(width: Double, room: Double) -> Block {
        let start = buttonBlock("timer.start", "Start", key: .timerStart, width: width, gap: space.m)
        let short = "Breathe with the circle, in silence."
        let options: [(String, TextStyle)?] = [(TimerText.intro, tokens.reading), (TimerText.intro, type.caption),
                                               (short, type.caption), nil]
        var intro: Block?
        for option in options {
            intro = option.map { paragraph("timer.intro", $0.0, width: width, style: $0.1, color: palette.textSecondary, gap: 0) }
            if (intro.map { $0.height + start.gap } ?? 0) + start.height <= room { break }
        }
        let parts = intro.map { [$0, start] } ?? [Block(id: start.id, key: start.key, height: start.height, gap: 0, draw: start.draw)]
        let height = parts.reduce(0.0) { $0 + $1.gap + $1.height }
        return Block(id: "timer.hero", key: .timerStart, height: height, gap: 0) { canvas, frame, focused in
            var y = frame.y
            for part in parts {
                y += part.gap
                part.draw(&canvas, Rect(x: frame.x, y: y, width: frame.width, height: part.height), focused)
                y += part.height
            }
        }
    }

    // MARK: Running

    mutating func breathingTimerScreen() {
        guard let timer = model.breathingTimer else { return timerSetupScreen() }
        let top = header("Breathing timer \u{00B7} \(InterfaceText.minutesText(Int(timer.length.seconds / 60)))")
        let area = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: screenHeight - space.m - top)
        let title = TimerText.title(timer.patternName)
        let rhythm = TimerText.rhythm(timer.patternName)
        let leftText = "\(TimeText.clock(Double(TimerText.secondsLeft(timer, now: now)))) left"
        let lengthText = "of \(TimeText.clock(timer.length.seconds))"
        let layout = timerLayout(area: area, title: title, rhythm: rhythm, left: leftText)
        let finished = timer.isFinished(at: now)

        if layout.maximumRadius > 0 {
            let look = timerCircleLook(timer, center: layout.circleCenter, minimum: layout.minimumRadius,
                                       maximum: layout.maximumRadius, finished: finished)
            drawCircle(look, guideRadius: layout.maximumRadius,
                       labelRadius: model.settings.reduceMotion ? look.radius : layout.minimumRadius)
        }

        var y = layout.columnTop
        let x = layout.columnX, width = layout.columnWidth
        y += text("timer.title", title, x: x, y: y, width: width, style: layout.titleStyle, color: palette.textPrimary,
                  maxLines: layout.titleLines)
        y += space.s
        y += text("timer.rhythm", rhythm, x: x, y: y, width: width, style: tokens.rowTitle, color: palette.textSecondary)
        y += space.l

        // The time: a bar that moves with whole seconds, and the time left in words and figures.
        let elapsed = Int(timer.elapsedSeconds(at: now).rounded(.down))
        let length = timer.length.seconds
        let barHeight = tokens.barHeight
        let fraction = ((min(1, Double(elapsed) / length) * width).rounded(.down) / width)
        add("timer.progress", .progress(ProgressBar(frame: Rect(x: x, y: y, width: width, height: barHeight), fraction: fraction,
                                                    track: palette.track, fill: palette.accent)))
        y += barHeight + space.s
        // The whole length at the right, where there is room for it beside the time left (the header says it too).
        let numeric = type.numeric
        let lengthWidth = textWidth(lengthText, style: numeric, tabular: true)
        let bothFit = textWidth(leftText, style: numeric, tabular: true) + space.m + lengthWidth <= width
        let leftHeight = text("timer.left", leftText, x: x, y: y, width: bothFit ? width - lengthWidth - space.m : width,
                              style: numeric, color: palette.textPrimary, tabular: true)
        if bothFit {
            text("timer.length", lengthText, x: x + width - lengthWidth, y: y, width: lengthWidth, style: numeric,
                 color: palette.textSecondary, alignment: .trailing, tabular: true)
        }
        y += leftHeight + space.l

        // PLAY: the round control, showing stop; beside it what PLAY and BACK do.
        let button = layout.buttonSize
        let center = Point(x: x + button / 2, y: y + layout.buttonRowHeight / 2)
        add("timer.button", .circle(CircleShape(center: center, radius: button / 2, fill: palette.controlFill,
                                                stroke: palette.controlRim.map { Stroke($0, width: tokens.hairline) })))
        stopGlyph("timer.icon", center: center, size: button, color: palette.controlIcon)
        let hintX = x + button + space.m
        var hintY = y + (layout.buttonRowHeight - layout.hintHeight) / 2
        hintY += text("timer.hint", TimerText.playHint, x: hintX, y: hintY, width: x + width - hintX, style: type.caption,
                      color: palette.textPrimary, weight: .medium)
        if layout.withBackHint {
            text("timer.back", TimerText.backHint, x: hintX, y: hintY, width: x + width - hintX, style: type.caption,
                 color: palette.textMuted)
        }

        if !finished { scheduleNextTimerChange(timer, layout: layout) }
    }

    struct TimerLayout {
        var circleCenter: Point
        var minimumRadius: Double
        var maximumRadius: Double
        var columnX: Double
        var columnTop: Double
        var columnWidth: Double
        var titleStyle: TextStyle
        var titleLines: Int?
        var buttonSize: Double
        var buttonRowHeight: Double
        var hintHeight: Double
        var withBackHint: Bool
    }

    /// The circle at the left, the column at the right, as on the player: when the column would not fit,
    /// the circle gives up room, the title steps down, BACK's line goes, and last the circle steps aside.
    func timerLayout(area: Rect, title: String, rhythm: String, left: String) -> TimerLayout {
        let options: [(TextStyle, Double, Bool)] = [
            (type.title, 0.22, true), (type.title, 0.17, true), (type.heading, 0.17, true), (type.heading, 0.14, true),
            (tokens.rowTitle, 0.14, true), (tokens.rowTitle, 0.14, false), (tokens.rowTitle, 0, false),
        ]
        var chosen: TimerLayout?
        var chosenHeight = 0.0
        for (titleStyle, share, withBack) in options {
            let split = circleColumn(area: area, share: share)
            let columnWidth = split.columnWidth
            let button = tokens.playerButton
            let hintWidth = columnWidth - button - space.m
            var hintHeight = textHeight(TimerText.playHint, width: hintWidth, style: type.caption, weight: .medium)
            if withBack { hintHeight += textHeight(TimerText.backHint, width: hintWidth, style: type.caption) }
            let rowHeight = max(button, hintHeight)
            let titleHeight = textHeight(title, width: columnWidth, style: titleStyle)
            let rhythmHeight = textHeight(rhythm, width: columnWidth, style: tokens.rowTitle)
            let numbersHeight = textHeight(left, width: columnWidth, style: type.numeric)
            let columnHeight = titleHeight + space.s + rhythmHeight + space.l + tokens.barHeight + space.s
                + numbersHeight + space.l + rowHeight
            chosen = TimerLayout(
                circleCenter: split.center, minimumRadius: split.minimumRadius,
                maximumRadius: split.maximumRadius, columnX: split.columnX,
                columnTop: (area.y + max(0, (area.height - columnHeight) / 2)).rounded(), columnWidth: columnWidth,
                titleStyle: titleStyle, titleLines: nil, buttonSize: button, buttonRowHeight: rowHeight,
                hintHeight: hintHeight, withBackHint: withBack)
            chosenHeight = columnHeight
            if columnHeight <= area.height && columnWidth >= 6 * type.body.size { break }
        }
        var layout = chosen!
        if chosenHeight > area.height {
            layout.titleLines = titleLinesLeft(title, style: layout.titleStyle, width: layout.columnWidth,
                                               columnHeight: chosenHeight, area: area)
            layout.columnTop = area.y
        }
        return layout
    }

    /// The circle for the timer at `now`: eased size, or with reduced motion its middle size and a slow
    /// change of glow; the phase in words inside it.
    func timerCircleLook(_ timer: BreathingTimer, center: Point, minimum: Double, maximum: Double, finished: Bool) -> CircleLook {
        let breath = finished ? BreathState.resting(at: 0) : timer.breath(at: now)
        let label: String
        if finished {
            label = "Done"
        } else {
            switch breath.phase {
            case .inhale?: label = "Breathe in"
            case .exhale?: label = "Breathe out"
            case .hold?, nil: label = "Hold" // the pattern's holds, full or empty (box)
            }
        }
        if model.settings.reduceMotion {
            let level = (breath.expansion * Self.glowLevels).rounded() / Self.glowLevels
            return CircleLook(center: center, radius: ((minimum + maximum) / 2).rounded(), bodyOpacity: 0.45 + 0.55 * level, label: label)
        }
        let radius = BreathingCircle.radius(expansion: breath.expansion, minimum: minimum, maximum: maximum).rounded()
        return CircleLook(center: center, radius: radius, bodyOpacity: 1, label: label)
    }

    /// When the screen next changes by itself: the circle's next whole pixel (or, with reduced motion,
    /// its next glow step or phase), or the next whole second of the time left — never past the end.
    mutating func scheduleNextTimerChange(_ timer: BreathingTimer, layout: TimerLayout) {
        let elapsed = now.nanoseconds >= timer.startedAt.nanoseconds ? now.nanoseconds - timer.startedAt.nanoseconds : 0
        let nextSecond = MonotonicInstant(nanoseconds: timer.startedAt.nanoseconds + (elapsed / 1_000_000_000 + 1) * 1_000_000_000)
        var next = min(nextSecond, timer.endsAt)
        if layout.maximumRadius > 0 {
            let reduced = model.settings.reduceMotion
            let circle = BreathingCircle.nextRadiusChange(pattern: timer.pattern, start: timer.startedAt, now: now,
                                                          minimum: reduced ? 0 : layout.minimumRadius,
                                                          maximum: reduced ? Self.glowLevels : layout.maximumRadius)
            next = min(next, circle)
        }
        changes(at: max(next, now + .milliseconds(1)))
    }

    /// A stop square, centred, the size of the play triangle it stands in for.
    mutating func stopGlyph(_ id: String, center: Point, size: Double, color: Color) {
        let side = (18 * size / 56).rounded()
        rect(id, Rect(x: center.x - side / 2, y: center.y - side / 2, width: side, height: side), radius: max(1, side / 8), fill: color)
    }
}
