// A sample player screen: the breathing circle on the left, the session on the right. It shows what
// the scene model can express and feeds the golden images and benchmarks; the interface issue builds
// the real screens (and may reshape this one) on the same tokens.

/// What the player screen shows.
public struct PlayerModel: Hashable, Sendable {
    public var title: String
    /// The session's theme, shown as a small label above the title ("Breathe").
    public var themeLabel: String
    public var elapsed: Duration
    public var duration: Duration
    public var isPlaying: Bool
    /// The breathing circle's state now; nil hides the circle's movement (it rests, small).
    public var breath: BreathState?
    /// A calm one-line notice ("Headphones unplugged — paused"), or nil.
    public var notice: String?

    public init(title: String, themeLabel: String, elapsed: Duration, duration: Duration, isPlaying: Bool,
                breath: BreathState? = nil, notice: String? = nil) {
        self.title = title
        self.themeLabel = themeLabel
        self.elapsed = elapsed
        self.duration = duration
        self.isPlaying = isPlaying
        self.breath = breath
        self.notice = notice
    }
}

/// Builds the player scene for a screen. Pure: the same model and tokens give the same scene.
public enum PlayerScene {
    /// Node identities, for tests and for anyone looking for a piece of the screen.
    public enum IDs {
        public static let guide: NodeID = "breath.guide"
        public static let halo: NodeID = "breath.halo"
        public static let body: NodeID = "breath.body"
        public static let edge: NodeID = "breath.edge"
        public static let phase: NodeID = "breath.phase"
        public static let label: NodeID = "player.label"
        public static let title: NodeID = "player.title"
        public static let progress: NodeID = "player.progress"
        public static let elapsed: NodeID = "player.elapsed"
        public static let remaining: NodeID = "player.remaining"
        public static let button: NodeID = "player.button"
        public static let icon1: NodeID = "player.icon.1"
        public static let icon2: NodeID = "player.icon.2"
        public static let hint: NodeID = "player.hint"
        public static let notice: NodeID = "player.notice"
        public static let noticeText: NodeID = "player.notice.text"
    }

    /// Where the breathing circle sits on a screen, and its smallest and largest radius.
    public struct CircleGeometry: Hashable, Sendable {
        public var center: Point
        public var minimumRadius: Double
        public var maximumRadius: Double
    }

    public static func circleGeometry(_ tokens: DesignTokens) -> CircleGeometry {
        let screen = tokens.screen
        let edge = tokens.spacing.edge
        let maximum = min((Double(screen.height) - 2 * edge) / 2, Double(screen.width) * 0.22).rounded()
        // The smallest circle holds the phase label ("Breathe out" is about six ems) at body size where
        // it can, so large text grows the smallest circle rather than shrinking the label.
        let labelRadius = (6 * tokens.type.body.size + 2 * tokens.spacing.s) / 2
        let minimum = min(max(maximum * 0.45, labelRadius), maximum * 0.7).rounded()
        return CircleGeometry(center: Point(x: edge + maximum, y: Double(screen.height) / 2),
                              minimumRadius: minimum, maximumRadius: maximum)
    }

    /// The scene for `model`. With `reducedMotion` the circle stays still at mid size and only its
    /// label follows the breath, so the scene does not animate.
    public static func make(_ model: PlayerModel, tokens: DesignTokens, reducedMotion: Bool = false) -> Scene {
        let palette = tokens.palette, type = tokens.type, space = tokens.spacing
        let screen = tokens.screen
        var nodes: [SceneNode] = []

        // The breathing circle.
        let circle = circleGeometry(tokens)
        let expansion = reducedMotion ? 0.5 : (model.breath?.expansion ?? 0)
        // Whole pixels: a frame in which the circle moved less than a pixel changes nothing, so the
        // slow ends of each breath draw fewer frames (the cap is 30 a second; the motion decides).
        let radius = BreathingCircle.radius(expansion: expansion, minimum: circle.minimumRadius,
                                            maximum: circle.maximumRadius).rounded()
        let bodyAlpha = tokens.appearance == .day ? 0.34 : 0.55
        nodes.append(SceneNode(IDs.guide, .circle(CircleShape(
            center: circle.center, radius: circle.maximumRadius, stroke: Stroke(palette.breathGuide, width: tokens.hairline)))))
        // A faint halo one step outside the body: the soft edge a radial glow would give, at the cost of
        // one flat fill (a radial gradient over the ring cost three times the rest of a breathing frame).
        nodes.append(SceneNode(IDs.halo, .circle(CircleShape(
            center: circle.center, radius: radius + space.s * 1.5, fill: palette.breathBody.withAlpha(bodyAlpha * 0.3)))))
        nodes.append(SceneNode(IDs.body, .circle(CircleShape(
            center: circle.center, radius: radius, fill: palette.breathBody.withAlpha(bodyAlpha)))))
        nodes.append(SceneNode(IDs.edge, .circle(CircleShape(
            center: circle.center, radius: radius, stroke: Stroke(palette.breathEdge, width: tokens.hairline * 1.5)))))
        // The label sits inside the smallest circle: its size is capped so the longest label ("Breathe
        // out", about six ems wide) fits there, which matters with large text on small panels.
        let phaseWidth = 2 * circle.minimumRadius - 2 * space.s
        var phaseStyle = type.body
        phaseStyle.size = max(TypeScale.minimumSize, min(phaseStyle.size, (phaseWidth / 6).rounded(.down)))
        nodes.append(SceneNode(IDs.phase, .text(TextRun(
            text: phaseText(model.breath?.phase, playing: model.isPlaying),
            frame: Rect(x: circle.center.x - phaseWidth / 2, y: circle.center.y - phaseStyle.linePitch / 2,
                        width: phaseWidth, height: phaseStyle.linePitch),
            role: phaseStyle.role, size: phaseStyle.size, weight: .medium, color: palette.textPrimary,
            alignment: .center, lineHeight: phaseStyle.lineHeight))))

        // The text column on the right.
        let columnX = circle.center.x + circle.maximumRadius + space.xl
        let columnWidth = Double(screen.width) - space.edge - columnX
        let label = type.label, title = type.title, numeric = type.numeric, caption = type.caption
        let titleLines = 2
        let barHeight = max(4, (tokens.hairline * 3).rounded())
        let buttonSize = (type.body.size * 2.6).rounded()
        let groupHeight = label.linePitch + space.s + title.linePitch * Double(titleLines) + space.l
            + barHeight + space.s + numeric.linePitch + space.l + buttonSize
        var y = ((Double(screen.height) - groupHeight) / 2).rounded()

        nodes.append(SceneNode(IDs.label, .text(TextRun(
            text: labelText(model), frame: Rect(x: columnX, y: y, width: columnWidth, height: label.linePitch),
            role: label.role, size: label.size, weight: label.weight, color: palette.textMuted,
            lineHeight: label.lineHeight, letterSpacing: label.letterSpacing))))
        y += label.linePitch + space.s
        nodes.append(SceneNode(IDs.title, .text(TextRun(
            text: model.title,
            frame: Rect(x: columnX, y: y, width: columnWidth, height: title.linePitch * Double(titleLines)),
            role: title.role, size: title.size, weight: title.weight, color: palette.textPrimary,
            maxLines: titleLines, lineHeight: title.lineHeight))))
        y += title.linePitch * Double(titleLines) + space.l

        let duration = max(0, model.duration.seconds)
        let elapsed = min(max(0, model.elapsed.seconds), duration)
        let rawFraction = duration > 0 ? elapsed / duration : 0
        // Whole pixels of bar: a fraction that moves less than a pixel does not change the scene.
        let fraction = (rawFraction * columnWidth).rounded(.down) / columnWidth
        nodes.append(SceneNode(IDs.progress, .progress(ProgressBar(
            frame: Rect(x: columnX, y: y, width: columnWidth, height: barHeight), fraction: fraction,
            track: palette.track, fill: palette.accent))))
        y += barHeight + space.s
        let timeWidth = columnWidth / 2
        nodes.append(SceneNode(IDs.elapsed, .text(TextRun(
            text: clock(elapsed), frame: Rect(x: columnX, y: y, width: timeWidth, height: numeric.linePitch),
            size: numeric.size, weight: numeric.weight, color: palette.textSecondary,
            lineHeight: numeric.lineHeight, tabularFigures: true))))
        nodes.append(SceneNode(IDs.remaining, .text(TextRun(
            text: "\u{2212}" + clock(duration - elapsed.rounded(.down)),
            frame: Rect(x: columnX + timeWidth, y: y, width: timeWidth, height: numeric.linePitch),
            size: numeric.size, weight: numeric.weight, color: palette.textSecondary, alignment: .trailing,
            lineHeight: numeric.lineHeight, tabularFigures: true))))
        y += numeric.linePitch + space.l

        // Play/pause: a round button with the icon of what PLAY will do next to it.
        let buttonCenter = Point(x: columnX + buttonSize / 2, y: y + buttonSize / 2)
        nodes.append(SceneNode(IDs.button, .circle(CircleShape(
            center: buttonCenter, radius: buttonSize / 2, fill: palette.controlFill,
            stroke: palette.controlRim.map { Stroke($0, width: tokens.hairline) }))))
        nodes += playIcon(playing: model.isPlaying, center: buttonCenter, size: buttonSize, color: palette.controlIcon)
        let hintX = columnX + buttonSize + space.m
        nodes.append(SceneNode(IDs.hint, .text(TextRun(
            text: model.isPlaying ? "PLAY to pause" : "PLAY to listen",
            frame: Rect(x: hintX, y: buttonCenter.y - caption.linePitch / 2, width: Double(screen.width) - space.edge - hintX,
                        height: caption.linePitch),
            size: caption.size, weight: caption.weight, color: palette.textMuted, lineHeight: caption.lineHeight))))

        if let notice = model.notice {
            let height = caption.linePitch + 2 * space.s
            // A banner along the bottom, under the circle and the column (both end above it), so a
            // notice keeps a whole line even on a 3.5" panel.
            let frame = Rect(x: space.m, y: Double(screen.height) - space.s - height,
                             width: Double(screen.width) - 2 * space.m, height: height)
            nodes.append(SceneNode(IDs.notice, .rect(RectShape(frame: frame, cornerRadius: tokens.radii.medium,
                                                               fill: palette.surface))))
            nodes.append(SceneNode(IDs.noticeText, .text(TextRun(
                text: notice, frame: Rect(x: frame.x + space.m, y: frame.y + space.s, width: frame.width - 2 * space.m,
                                          height: caption.linePitch),
                size: caption.size, weight: .medium, color: palette.attention, lineHeight: caption.lineHeight))))
        }

        let animating = model.isPlaying && model.breath != nil && !reducedMotion
        return Scene(size: screen, background: palette.background, nodes: nodes, isAnimating: animating)
    }

    /// Seconds from `position` until the player's clock or progress bar next changes while playing
    /// (the next whole second, or the next pixel of bar, whichever comes first). With the circle's
    /// `BreathingCircle.nextRadiusChange`, what a scene builder puts in `Scene.nextChange`.
    public static func secondsUntilClockOrBarChanges(position: Double, duration: Double, tokens: DesignTokens) -> Double {
        let toNextSecond = (position.rounded(.down) + 1) - position
        let circle = circleGeometry(tokens)
        let columnX = circle.center.x + circle.maximumRadius + tokens.spacing.xl
        let barWidth = Double(tokens.screen.width) - tokens.spacing.edge - columnX
        guard duration > 0, barWidth > 0 else { return toNextSecond }
        let pixel = duration / barWidth
        let toNextPixel = ((position / pixel).rounded(.down) + 1) * pixel - position
        return max(0.001, min(toNextSecond, toNextPixel))
    }

    /// "Breathe in", "Hold", "Breathe out"; "Rest" between breaths; "Paused" when paused.
    public static func phaseText(_ phase: BreathPhase?, playing: Bool) -> String {
        guard playing else { return "Paused" }
        switch phase {
        case .inhale: return "Breathe in"
        case .hold: return "Hold"
        case .exhale: return "Breathe out"
        case nil: return "Rest"
        }
    }

    static func labelText(_ model: PlayerModel) -> String {
        let minutes = Int((model.duration.seconds / 60).rounded())
        return model.themeLabel.uppercased() + " \u{00B7} \(minutes) MIN"
    }

    /// m:ss, or h:mm:ss from an hour up; whole seconds, rounded down.
    public static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded(.down))
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    private static func playIcon(playing: Bool, center: Point, size: Double, color: Color) -> [SceneNode] {
        let unit = size / 56
        if playing { // pause bars: what PLAY does now
            let barWidth = (6 * unit).rounded(), barHeight = (20 * unit).rounded(), gap = (6 * unit).rounded()
            let top = center.y - barHeight / 2
            return [
                SceneNode(IDs.icon1, .rect(RectShape(frame: Rect(x: center.x - gap / 2 - barWidth, y: top, width: barWidth, height: barHeight),
                                                     cornerRadius: barWidth / 3, fill: color))),
                SceneNode(IDs.icon2, .rect(RectShape(frame: Rect(x: center.x + gap / 2, y: top, width: barWidth, height: barHeight),
                                                     cornerRadius: barWidth / 3, fill: color))),
            ]
        }
        // A triangle, nudged right so it looks centred.
        let half = 11 * unit, nudge = 2.5 * unit
        return [SceneNode(IDs.icon1, .polygon(PolygonShape(points: [
            Point(x: center.x - half * 0.8 + nudge, y: center.y - half),
            Point(x: center.x + half * 0.95 + nudge, y: center.y),
            Point(x: center.x - half * 0.8 + nudge, y: center.y + half),
        ], fill: color)))]
    }
}
