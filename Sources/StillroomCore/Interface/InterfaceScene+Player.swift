// The player: the breathing circle, the title, a large clear state, the progress with elapsed and
// remaining time, the seek preview while the knob turns, and what PLAY and the knob do.

/// Where the circle is and how it looks at one moment.
struct CircleLook {
    var center: Point
    var radius: Double
    var bodyOpacity: Double
    var label: String
}

extension Canvas {
    /// The levels of the reduced-motion glow: the circle's opacity moves in this many steps per breath,
    /// slowly enough to follow without motion.
    static let glowLevels = 12.0

    mutating func playerScreen() {
        let player = model.player
        let session = model.session(player.sessionID)
        var headerText = "Player"
        if let session { headerText = "\(InterfaceText.themeName(session.theme)) \u{00B7} \(InterfaceText.length(session.durationSeconds))" }
        let top = header(headerText)
        let position = player.position(at: now)
        let length = player.lengthSeconds > 0 ? player.lengthSeconds : (session?.durationSeconds ?? 0)
        let area = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: screenHeight - space.m - top)
        let title = player.hasSession ? player.title : "Nothing playing"
        let preview = ui.seekPreview
        var state: String
        if let preview {
            let delta = (preview.targetSeconds - preview.fromSeconds).rounded()
            state = "Jump to \(TimeText.clock(preview.targetSeconds)) (\(delta < 0 ? "\u{2212}" : "+")\(TimeText.clock(abs(delta))))"
        } else {
            state = player.hasSession ? InterfaceText.playerState(player) : playMeaning().text
        }
        if preview == nil && player.isPlaying && model.headphonesConnected == true { state = "Playing on headphones" }
        let advice = preview == nil ? playerAdvice() : nil
        let layout = playerLayout(area: area, title: title, state: state, advice: advice)

        // The circle.
        if layout.maximumRadius > 0 {
            let look = circleLook(center: layout.circleCenter, minimum: layout.minimumRadius, maximum: layout.maximumRadius,
                                  position: position)
            drawCircle(look, guideRadius: layout.maximumRadius,
                       labelRadius: model.settings.reduceMotion ? look.radius : layout.minimumRadius)
        }

        // The column.
        var y = layout.columnTop
        let x = layout.columnX, width = layout.columnWidth
        y += text("player.title", title, x: x, y: y, width: width, style: layout.titleStyle, color: palette.textPrimary,
                  maxLines: layout.titleLines)
        y += space.s
        y += text("player.state", state, x: x, y: y, width: width, style: tokens.rowTitle,
                  color: preview != nil ? palette.textPrimary : palette.textSecondary)
        if let advice {
            y += space.xs
            y += text("player.advice", advice, x: x, y: y, width: width, style: type.caption, color: palette.attention, weight: .medium)
        }
        y += space.l

        // Progress: the bar shows the preview's target while the knob turns, with a mark where it was.
        let barHeight = tokens.barHeight
        let shown = preview?.targetSeconds ?? position
        let fraction = length > 0 ? ((min(1, shown / length) * width).rounded(.down) / width) : 0
        add("player.progress", .progress(ProgressBar(frame: Rect(x: x, y: y, width: width, height: barHeight), fraction: fraction,
                                                     track: palette.track, fill: palette.accent)))
        if let preview, length > 0 {
            let markX = x + (min(1, preview.fromSeconds / length) * width).rounded()
            rect("player.progress.from", Rect(x: markX - tokens.hairline, y: y - barHeight, width: 2 * tokens.hairline,
                                              height: 3 * barHeight), radius: tokens.hairline, fill: palette.textSecondary)
        }
        y += barHeight + space.s
        let numeric = type.numeric
        let half = width / 2
        text("player.elapsed", TimeText.clock(shown), x: x, y: y, width: half, style: numeric,
             color: preview != nil ? palette.textPrimary : palette.textSecondary, tabular: true)
        text("player.remaining", "\u{2212}" + TimeText.clock(max(0, length - shown.rounded(.down))), x: x + half, y: y,
             width: half, style: numeric, color: palette.textSecondary, alignment: .trailing, tabular: true)
        y += numeric.linePitch + space.l

        // PLAY: the round control shows what PLAY does now; beside it, the words.
        let button = layout.buttonSize
        let center = Point(x: x + button / 2, y: y + layout.buttonRowHeight / 2)
        add("player.button", .circle(CircleShape(center: center, radius: button / 2, fill: palette.controlFill,
                                                 stroke: palette.controlRim.map { Stroke($0, width: tokens.hairline) })))
        playGlyph("player.icon", center: center, size: button, playing: player.isPlaying && preview == nil, color: palette.controlIcon)
        let hintX = x + button + space.m
        var hintY = y + (layout.buttonRowHeight - layout.hintHeight) / 2
        hintY += text("player.hint", layout.playHint, x: hintX, y: hintY, width: x + width - hintX, style: type.caption,
                      color: palette.textPrimary, weight: .medium)
        if let knob = layout.knobHint {
            text("player.knob", knob, x: hintX, y: hintY, width: x + width - hintX, style: type.caption, color: palette.textMuted)
        }

        if player.isPlaying && preview == nil { scheduleNextPlayerChange(position: position, length: length, layout: layout) }
    }

    /// What to do about an interruption (nil: nothing interrupted playback).
    func playerAdvice() -> String? {
        let player = model.player
        if let problem = player.outputProblem {
            return "\(problem.prefix(1).uppercased() + problem.dropFirst()). Check the speaker or headphones cable, then press PLAY."
        }
        if case .failed(let message) = player.phase {
            return "\(message) PLAY tries again; BACK chooses another session."
        }
        if player.phase == .paused && player.pauseReason == .damagedRecording {
            return "\(player.damage ?? "The recording is damaged.") Turn the knob to skip past it, or press BACK to choose another session."
        }
        if player.phase == .paused && player.pauseReason == .headphonesRemoved {
            return "Plug them in and press PLAY, or press PLAY to listen on the speaker."
        }
        return nil
    }

    struct PlayerLayout {
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
        var playHint: String
        var knobHint: String?
        var hintHeight: Double
    }

    /// The circle at the left, the column at the right. When the column would not fit, the circle gives
    /// up room, the title steps down the type scale, the knob's hint goes, and last the circle steps
    /// aside. Only past all that is the title cut (no title in the catalog comes near it).
    func playerLayout(area: Rect, title: String, state: String, advice: String?) -> PlayerLayout {
        let player = model.player
        let playHint: String
        if ui.seekPreview != nil {
            playHint = "Rest the knob to jump \u{00B7} BACK cancels"
        } else if player.hasSession {
            switch player.phase {
            case .playing, .loading: playHint = "PLAY to pause"
            case .ended: playHint = "PLAY to listen again"
            case .failed: playHint = "PLAY to try again"
            default: playHint = "PLAY to resume"
            }
        } else {
            playHint = "PLAY to listen"
        }
        let knobHint = player.hasSession && ui.seekPreview == nil
            ? (model.transcript != nil ? "Turn to seek \u{00B7} press for the words" : "Turn to seek") : nil
        let options: [(TextStyle, Double, Bool)] = [
            (type.title, 0.22, true), (type.title, 0.17, true), (type.heading, 0.17, true), (type.heading, 0.14, false),
            (tokens.rowTitle, 0.14, false), (tokens.rowTitle, 0, false),
        ]
        var chosen: PlayerLayout?
        var chosenHeight = 0.0
        for (titleStyle, share, withKnob) in options {
            let split = circleColumn(area: area, share: share)
            let columnWidth = split.columnWidth
            let button = tokens.playerButton
            let hintWidth = columnWidth - button - space.m
            let knob = withKnob ? knobHint : nil
            var hintHeight = textHeight(playHint, width: hintWidth, style: type.caption, weight: .medium)
            if let knob { hintHeight += textHeight(knob, width: hintWidth, style: type.caption) }
            let rowHeight = max(button, hintHeight)
            let titleHeight = textHeight(title, width: columnWidth, style: titleStyle)
            let stateHeight = textHeight(state, width: columnWidth, style: tokens.rowTitle)
            let adviceHeight = advice.map { space.xs + textHeight($0, width: columnWidth, style: type.caption, weight: .medium) } ?? 0
            let columnHeight = titleHeight + space.s + stateHeight + adviceHeight + space.l + tokens.barHeight + space.s
                + type.numeric.linePitch + space.l + rowHeight
            chosen = PlayerLayout(
                circleCenter: split.center, minimumRadius: split.minimumRadius,
                maximumRadius: split.maximumRadius, columnX: split.columnX,
                columnTop: (area.y + max(0, (area.height - columnHeight) / 2)).rounded(), columnWidth: columnWidth,
                titleStyle: titleStyle, titleLines: nil, buttonSize: button, buttonRowHeight: rowHeight, playHint: playHint,
                knobHint: knob, hintHeight: hintHeight)
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

    /// The circle's size, glow and words at `position`.
    func circleLook(center: Point, minimum: Double, maximum: Double, position: Double) -> CircleLook {
        let player = model.player
        let breath = breathState(at: position)
        let label: String
        switch player.phase {
        case .playing where ui.seekPreview == nil: label = PlayerScene.phaseText(breath.phase, playing: true)
        case .playing, .paused: label = ui.seekPreview != nil ? "Seeking" : "Paused"
        case .loading: label = "Settle in"
        case .ended: label = "Done"
        case .failed: label = "Stopped"
        case .idle: label = "Rest"
        }
        if model.settings.reduceMotion {
            // Still: the circle keeps its middle size; the breath shows as a slow change of glow.
            let level = (breath.expansion * Self.glowLevels).rounded() / Self.glowLevels
            return CircleLook(center: center, radius: ((minimum + maximum) / 2).rounded(), bodyOpacity: 0.45 + 0.55 * level, label: label)
        }
        let radius = BreathingCircle.radius(expansion: breath.expansion, minimum: minimum, maximum: maximum).rounded()
        return CircleLook(center: center, radius: radius, bodyOpacity: 1, label: label)
    }

    /// The breath at `position` in the recording: its cues when it has them, otherwise the calm pattern.
    func breathState(at position: Double) -> BreathState {
        guard model.player.hasSession else { return .resting(at: 0) }
        if let cues = model.breathCues, !cues.cues.isEmpty { return BreathingCircle.state(in: cues, atSeconds: position) }
        return BreathingCircle.state(pattern: .calm, start: .zero, now: Self.instant(position))
    }

    static func instant(_ seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(max(0, seconds) * 1e9))
    }

    mutating func drawCircle(_ look: CircleLook, guideRadius: Double, labelRadius: Double) {
        let p = palette
        let bodyAlpha = (tokens.appearance == .day ? 0.34 : 0.55) * look.bodyOpacity
        // The halo and the body are tints of the flat background, so they are painted as the opaque colours
        // a viewer sees: pixman fills opaque spans instead of blending every pixel, which halves the cost of
        // a breathing frame. The guide ring (the circle's largest size, so never inside the body) goes over
        // the halo in the colour it showed through it, and under the body, whose edge covers it at the top
        // of a breath.
        let halo = p.breathBody.withAlpha(bodyAlpha * 0.3)
        let body = p.breathBody.withAlpha(bodyAlpha)
        let haloRadius = look.radius + space.s * 1.5
        add("breath.halo", .circle(CircleShape(center: look.center, radius: haloRadius, fill: halo.composited(over: p.background))))
        let guide = guideRadius < haloRadius ? halo.composited(over: p.breathGuide) : p.breathGuide
        add("breath.guide", .circle(CircleShape(center: look.center, radius: guideRadius, stroke: Stroke(guide, width: tokens.hairline))))
        add("breath.body", .circle(CircleShape(center: look.center, radius: look.radius,
                                               fill: body.composited(over: halo.composited(over: p.background)),
                                               stroke: Stroke(p.breathEdge, width: tokens.hairline * 1.5))))
        // The words sit inside the smallest circle, at a size that fits "Breathe out" there.
        let width = 2 * labelRadius - 2 * space.s
        var style = type.body
        style.size = max(TypeScale.minimumSize, min(style.size, (max(1, width) / 6).rounded(.down)))
        let labelWidth = max(width, textWidth(look.label, style: style, weight: .medium))
        text("breath.phase", look.label, x: look.center.x - labelWidth / 2, y: look.center.y - style.linePitch / 2,
             width: labelWidth, style: style, color: p.textPrimary, weight: .medium, alignment: .center)
    }

    /// While playing: when the circle next moves a pixel (or, with reduced motion, its glow a step),
    /// the clock a second, or the bar a pixel — whichever comes first.
    mutating func scheduleNextPlayerChange(position: Double, length: Double, layout: PlayerLayout) {
        var next = (position.rounded(.down) + 1) - position
        if length > 0 {
            let pixel = length / max(1, layout.columnWidth)
            next = min(next, ((position / pixel).rounded(.down) + 1) * pixel - position)
        }
        let reduced = model.settings.reduceMotion
        let minimum = reduced ? 0 : layout.minimumRadius, maximum = reduced ? Self.glowLevels : layout.maximumRadius
        if let cues = model.breathCues, !cues.cues.isEmpty {
            if let at = BreathingCircle.nextRadiusChange(in: cues, atSeconds: position, minimum: minimum, maximum: maximum) {
                next = min(next, at - position)
            }
        } else {
            let at = BreathingCircle.nextRadiusChange(pattern: .calm, start: .zero, now: Self.instant(position),
                                                      minimum: minimum, maximum: maximum)
            next = min(next, Double(at.nanoseconds) / 1e9 - position)
        }
        changes(at: now + .nanoseconds(Int64(max(0.001, next) * 1e9)))
    }
}
