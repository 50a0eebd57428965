import CairoPainter
import StillroomCore

/// Scenes the golden images and the dirty-rectangle tests draw.
enum SampleScenes {
    static let reference = PixelSize(width: 800, height: 480)
    static let small = PixelSize(width: 480, height: 320)

    static func player(_ size: PixelSize, _ appearance: Appearance, largeText: Bool = false,
                       expansion: Double = 0.6, playing: Bool = true, notice: String? = nil,
                       title: String = "Evening wind-down", elapsed: Duration = .seconds(83)) -> Scene {
        let tokens = DesignTokens(appearance: appearance, screen: size, largeText: largeText)
        let model = PlayerModel(title: title, themeLabel: "Unwind", elapsed: elapsed, duration: .seconds(300),
                                isPlaying: playing, breath: BreathState(phase: .inhale, expansion: expansion, progress: expansion),
                                notice: notice)
        return PlayerScene.make(model, tokens: tokens)
    }

    /// Text specimen: alignment, wrapping, both ellipses, tabular figures, scripts other than Latin.
    static func text(_ appearance: Appearance) -> Scene {
        let tokens = DesignTokens(appearance: appearance, screen: reference)
        let p = tokens.palette, t = tokens.type
        var nodes: [SceneNode] = []
        var y = 24.0
        func add(_ id: String, _ text: String, _ style: TextStyle, width: Double = 360, x: Double = 24,
                 lines: Int = 1, align: TextAlignment = .leading, cut: TextTruncation = .end, tabular: Bool = false,
                 color: Color? = nil) {
            nodes.append(SceneNode(NodeID(id), .rect(RectShape(frame: Rect(x: x, y: y, width: width, height: style.linePitch * Double(lines)),
                                                               fill: p.surface))))
            nodes.append(SceneNode(NodeID(id + ".text"), .text(TextRun(
                text: text, frame: Rect(x: x, y: y, width: width, height: style.linePitch * Double(lines)), role: style.role,
                size: style.size, weight: style.weight, color: color ?? p.textPrimary, alignment: align, maxLines: lines,
                truncation: cut, lineHeight: style.lineHeight, tabularFigures: tabular, letterSpacing: style.letterSpacing))))
            y += style.linePitch * Double(lines) + 10
        }
        add("lead", "Leading", t.body)
        add("centre", "Centred", t.body, align: .center)
        add("trail", "Trailing", t.body, align: .trailing)
        add("wrap", "A long description wraps at word boundaries onto a second and third line, then stops with an ellipsis.",
            t.caption, lines: 3, color: p.textSecondary)
        add("end", "Cut at the end when one line is not enough for this title", t.body)
        add("middle", "Cut in the middle when one line is not enough for this", t.body, cut: .middle)
        add("label", "SMALL SPACED LABEL", t.label, color: p.textMuted)
        y = 24
        add("digits", "1:11 \u{2212}0:00", t.numeric, width: 340, x: 436, tabular: true)
        add("digits2", "8:88 \u{2212}4:44", t.numeric, width: 340, x: 436, tabular: true)
        add("greek", "Αναπνοή · ήσυχα", t.body, width: 340, x: 436)
        add("cyrillic", "Дыхание · тишина", t.body, width: 340, x: 436)
        add("latin", "Übung · Respiración · Œuvre", t.body, width: 340, x: 436)
        add("title", "Morning", t.title, width: 340, x: 436)
        return Scene(size: reference, background: p.background, nodes: nodes)
    }

    /// Shapes specimen: rounded and stroked rectangles, discs, rings, a glow, a polygon, progress at
    /// 0, ½ and 1, opacity, and an image (when `image` names one in the painter's library).
    static func shapes(image: String? = nil) -> Scene {
        let p = Palette.day
        var nodes: [SceneNode] = [
            SceneNode("r1", .rect(RectShape(frame: Rect(x: 20, y: 20, width: 120, height: 80), cornerRadius: 16, fill: p.surface,
                                            stroke: Stroke(p.accent, width: 3)))),
            SceneNode("r2", .rect(RectShape(frame: Rect(x: 160, y: 20, width: 120, height: 80), fill: p.accent))),
            SceneNode("r3", .rect(RectShape(frame: Rect(x: 300, y: 20, width: 120, height: 80), cornerRadius: 40, fill: p.breathBody)), opacity: 0.5),
            SceneNode("c1", .circle(CircleShape(center: Point(x: 80, y: 200), radius: 50, fill: p.breathBody.withAlpha(0.4),
                                                glow: p.breathBody.withAlpha(0.3), glowRadius: 75))),
            SceneNode("c2", .circle(CircleShape(center: Point(x: 220, y: 200), radius: 50, stroke: Stroke(p.breathEdge, width: 4)))),
            SceneNode("c3", .circle(CircleShape(center: Point(x: 360, y: 200), radius: 50, fill: p.accent, stroke: Stroke(p.textPrimary, width: 2)))),
            SceneNode("tri", .polygon(PolygonShape(points: [Point(x: 450, y: 150), Point(x: 540, y: 200), Point(x: 450, y: 250)],
                                                   fill: p.attention))),
            SceneNode("p0", .progress(ProgressBar(frame: Rect(x: 20, y: 300, width: 500, height: 8), fraction: 0, track: p.track, fill: p.accent))),
            SceneNode("p1", .progress(ProgressBar(frame: Rect(x: 20, y: 330, width: 500, height: 8), fraction: 0.5, track: p.track, fill: p.accent))),
            SceneNode("p2", .progress(ProgressBar(frame: Rect(x: 20, y: 360, width: 500, height: 8), fraction: 1, track: p.track, fill: p.accent))),
        ]
        if let image {
            nodes.append(SceneNode("img", .image(ImageRef(name: image, frame: Rect(x: 600, y: 20, width: 160, height: 120)))))
        }
        return Scene(size: reference, background: p.background, nodes: nodes)
    }
}
