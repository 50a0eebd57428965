// Every screen as a scene, built from the interface's state, the model, the design tokens and `now`.
// Layouts measure their text (through the painter's measure when there is one) and reflow: text wraps
// onto as many lines as it needs, lists scroll to keep the focus in view, and nothing is cut short.

/// Builds the scene for the showing screen. Keeps what it measured (text does not change often), so
/// one instance should live as long as the screen.
public final class InterfaceScene {
    public let measurer: TextMeasurer
    private var lineCache: [MeasureKey: Int] = [:]
    private var widthCache: [MeasureKey: Double] = [:]
    private var pageCache: [PagesKey: [String]] = [:]

    public init(measurer: TextMeasurer = .estimate) {
        self.measurer = measurer
    }

    /// The scene for `interface` over `model` at `now`, for a screen of `size`.
    public func scene(_ interface: Interface, model: InterfaceModel, size: PixelSize, now: MonotonicInstant) -> Scene {
        let tokens = DesignTokens(appearance: interface.appearance(model), screen: size, textSize: model.settings.textSize)
        var canvas = Canvas(owner: self, tokens: tokens, model: model, ui: interface, now: now)
        if let update = model.systemUpdate {
            canvas.systemUpdateScreen(update)
        } else if interface.showsResumeOffer(model) {
            canvas.resumeOfferScreen()
        } else {
            switch interface.screen {
            case .library: canvas.libraryScreen()
            case .detail(let id): canvas.detailScreen(id)
            case .player: canvas.playerScreen()
            case .transcript: canvas.transcriptScreen()
            case .history: canvas.historyScreen()
            case .settings: canvas.settingsScreen()
            case .downloads: canvas.downloadsScreen()
            case .confirm(let question): canvas.confirmScreen(question)
            case .notice(let id): canvas.noticeScreen(id)
            case .idle: canvas.idleScreen()
            case .timerSetup: canvas.timerSetupScreen()
            case .breathingTimer: canvas.breathingTimerScreen()
            }
        }
        return Scene(size: size, background: tokens.palette.background, nodes: canvas.nodes,
                     isAnimating: canvas.nextChange != nil || canvas.animating, nextChange: canvas.nextChange)
    }

    // MARK: Measuring, remembered

    struct MeasureKey: Hashable {
        /// The text's UTF-8 bytes: hashing a String first normalises it (slow for the "−" and "·" every
        /// player frame has), and this cache is looked up a dozen times a frame.
        var text: [UInt8]
        var width: Double
        var size: Double
        var weight: FontWeight
        var role: FontRole
        var letterSpacing: Double
        var lineHeight: Double
        var tabular: Bool

        init(_ run: TextRun, width: Double) {
            // With tabular figures every digit is as wide as every other, so "−4:12" measures as "−0:00":
            // the clock and the times left are measured once, not each time they tick (a fresh pango
            // layout each second cost more than a second of breathing frames).
            text = run.tabularFigures ? run.text.utf8.map { (0x30...0x39).contains($0) ? 0x30 : $0 } : Array(run.text.utf8)
            self.width = width
            size = run.size
            weight = run.weight
            role = run.role
            letterSpacing = run.letterSpacing
            lineHeight = run.lineHeight
            tabular = run.tabularFigures
        }
    }

    func lines(_ run: TextRun) -> Int {
        let key = MeasureKey(run, width: run.frame.width)
        if let known = lineCache[key] { return known }
        if lineCache.count > 4096 { lineCache.removeAll() }
        let count = max(1, measurer.lineCount(run))
        lineCache[key] = count
        return count
    }

    /// The pages `text` is cut into at `width` so each is at most `lines` lines (PageCutter), remembered:
    /// a long cue is cut once, not on every frame.
    func pages(_ text: String, width: Double, lines: Int, style: TextStyle, weight: FontWeight) -> [String] {
        var probe = TextRun(text: "", frame: Rect(x: 0, y: 0, width: max(1, width), height: style.linePitch), role: style.role,
                            size: style.size, weight: weight, color: Color(hex: 0), alignment: .leading, maxLines: 1,
                            truncation: .end, lineHeight: style.lineHeight, tabularFigures: false, letterSpacing: style.letterSpacing)
        probe.text = text
        let key = PagesKey(text: MeasureKey(probe, width: width), lines: lines)
        if let known = pageCache[key] { return known }
        if pageCache.count > 512 { pageCache.removeAll() }
        let cut = PageCutter.pages(of: text, lines: lines) { piece in
            probe.text = piece
            return self.lines(probe)
        }
        pageCache[key] = cut
        return cut
    }

    struct PagesKey: Hashable {
        var text: MeasureKey
        var lines: Int
    }

    func width(_ run: TextRun) -> Double {
        let key = MeasureKey(run, width: 0)
        if let known = widthCache[key] { return known }
        if widthCache.count > 4096 { widthCache.removeAll() }
        let width = measurer.lineWidth(run)
        widthCache[key] = width
        return width
    }
}

/// A piece of a scrolling screen: a card, a row, a sentence. At most one focus stop each.
struct Block {
    var id: String
    var key: FocusKey?
    var height: Double
    /// Space above it (from the block before).
    var gap: Double
    var draw: (inout Canvas, Rect, Bool) -> Void
}

/// Where a list keeps its focused block.
enum ListAnchor {
    /// The focused block sits this far down the free space (0 top, 1 bottom), where the list allows.
    case focus(fraction: Double)
}

/// One scene being built.
struct Canvas {
    let owner: InterfaceScene
    let tokens: DesignTokens
    let model: InterfaceModel
    let ui: Interface
    let now: MonotonicInstant
    var nodes: [SceneNode] = []
    /// When the scene next changes by itself (the circle, the clock of a playing session, a cue).
    var nextChange: MonotonicInstant?
    var animating = false

    init(owner: InterfaceScene, tokens: DesignTokens, model: InterfaceModel, ui: Interface, now: MonotonicInstant) {
        self.owner = owner
        self.tokens = tokens
        self.model = model
        self.ui = ui
        self.now = now
    }

    var palette: Palette { tokens.palette }
    var space: Spacing { tokens.spacing }
    var type: TypeScale { tokens.type }
    var screenWidth: Double { Double(tokens.screen.width) }
    var screenHeight: Double { Double(tokens.screen.height) }
    var edge: Double { space.edge }

    /// The focused key on the showing screen.
    var focused: FocusKey? { ui.focus(model) }

    mutating func changes(at instant: MonotonicInstant) {
        if let current = nextChange, current <= instant { return }
        nextChange = instant
    }

    // MARK: Nodes

    mutating func add(_ id: String, _ content: SceneNode.Content, opacity: Double = 1) {
        nodes.append(SceneNode(NodeID(id), content, opacity: opacity))
    }

    func run(_ text: String, width: Double, style: TextStyle, weight: FontWeight? = nil, color: Color = Color(hex: 0),
             alignment: TextAlignment = .leading, tabular: Bool = false) -> TextRun {
        TextRun(text: text, frame: Rect(x: 0, y: 0, width: max(1, width), height: style.linePitch), role: style.role,
                size: style.size, weight: weight ?? style.weight, color: color, alignment: alignment, maxLines: 1,
                truncation: .end, lineHeight: style.lineHeight, tabularFigures: tabular, letterSpacing: style.letterSpacing)
    }

    /// Lines `text` needs at `width`.
    func lineCount(_ text: String, width: Double, style: TextStyle, weight: FontWeight? = nil, tabular: Bool = false) -> Int {
        owner.lines(run(text, width: width, style: style, weight: weight, tabular: tabular))
    }

    /// Height `text` needs at `width`, every line shown.
    func textHeight(_ text: String, width: Double, style: TextStyle, weight: FontWeight? = nil, maxLines: Int? = nil) -> Double {
        var lines = lineCount(text, width: width, style: style, weight: weight)
        if let maxLines { lines = min(lines, maxLines) }
        return Double(lines) * style.linePitch
    }

    /// Width of `text` on one line.
    func textWidth(_ text: String, style: TextStyle, weight: FontWeight? = nil, tabular: Bool = false) -> Double {
        owner.width(run(text, width: 10_000, style: style, weight: weight, tabular: tabular)).rounded(.up)
    }

    /// Adds a text node as tall as its lines; returns that height. `maxLines` caps it (with "…") only
    /// where a layout has no other way out.
    @discardableResult
    mutating func text(_ id: String, _ text: String, x: Double, y: Double, width: Double, style: TextStyle, color: Color,
                       weight: FontWeight? = nil, alignment: TextAlignment = .leading, maxLines: Int? = nil,
                       tabular: Bool = false, opacity: Double = 1) -> Double {
        var lines = lineCount(text, width: width, style: style, weight: weight, tabular: tabular)
        if let maxLines { lines = min(lines, maxLines) }
        let height = Double(lines) * style.linePitch
        add(id, .text(TextRun(text: text, frame: Rect(x: x, y: y, width: width, height: height), role: style.role,
                              size: style.size, weight: weight ?? style.weight, color: color, alignment: alignment,
                              maxLines: lines, truncation: .end, lineHeight: style.lineHeight, tabularFigures: tabular,
                              letterSpacing: style.letterSpacing)), opacity: opacity)
        return height
    }

    mutating func rect(_ id: String, _ frame: Rect, radius: Double, fill: Color? = nil, stroke: Stroke? = nil, opacity: Double = 1) {
        add(id, .rect(RectShape(frame: frame, cornerRadius: radius, fill: fill, stroke: stroke)), opacity: opacity)
    }

    /// The focus ring: an accent outline just outside `frame`.
    mutating func focusRing(_ id: String, _ frame: Rect, radius: Double) {
        let width = tokens.focusRing
        rect(id, frame.outset(by: width / 2 + 1), radius: radius + width / 2 + 1, stroke: Stroke(palette.accent, width: width))
    }

    /// A play triangle or pause bars, centred.
    mutating func playGlyph(_ id: String, center: Point, size: Double, playing: Bool, color: Color) {
        let unit = size / 56
        if playing {
            let barWidth = max(2, (6 * unit).rounded()), barHeight = (20 * unit).rounded(), gap = max(2, (6 * unit).rounded())
            let top = center.y - barHeight / 2
            rect(id + ".1", Rect(x: center.x - gap / 2 - barWidth, y: top, width: barWidth, height: barHeight),
                 radius: barWidth / 3, fill: color)
            rect(id + ".2", Rect(x: center.x + gap / 2, y: top, width: barWidth, height: barHeight), radius: barWidth / 3, fill: color)
        } else {
            let half = 11 * unit, nudge = 2.5 * unit
            add(id + ".1", .polygon(PolygonShape(points: [
                Point(x: center.x - half * 0.8 + nudge, y: center.y - half),
                Point(x: center.x + half * 0.95 + nudge, y: center.y),
                Point(x: center.x - half * 0.8 + nudge, y: center.y + half),
            ], fill: color)))
        }
    }

    /// A small chevron pointing up (-1) or down (1) (more to scroll), right (0, opens a screen) or left (2, back).
    mutating func chevron(_ id: String, center: Point, size: Double, direction: Int, color: Color) {
        let h = size / 2
        let points: [Point]
        switch direction {
        case -1: points = [Point(x: center.x - h, y: center.y + h / 2), Point(x: center.x, y: center.y - h / 2),
                           Point(x: center.x + h, y: center.y + h / 2)]
        case 1: points = [Point(x: center.x - h, y: center.y - h / 2), Point(x: center.x, y: center.y + h / 2),
                          Point(x: center.x + h, y: center.y - h / 2)]
        case 2: points = [Point(x: center.x + h / 2, y: center.y - h), Point(x: center.x - h / 2, y: center.y),
                          Point(x: center.x + h / 2, y: center.y + h)]
        default: points = [Point(x: center.x - h / 2, y: center.y - h), Point(x: center.x + h / 2, y: center.y),
                           Point(x: center.x - h / 2, y: center.y + h)]
        }
        add(id, .polygon(PolygonShape(points: points, fill: nil, stroke: Stroke(color, width: max(1.5, tokens.hairline)))))
    }

    // MARK: Chrome

    /// The line along the top: the screen's name on the left, the time on the right. Returns where
    /// content may start.
    mutating func header(_ title: String) -> Double {
        let style = type.label
        let y = space.m
        let clockWidth = headerClockWidth
        if let clock = model.clock {
            text("header.clock", clock.text, x: screenWidth - edge - clockWidth, y: y, width: clockWidth, style: style,
                 color: palette.textMuted, alignment: .trailing, tabular: true)
        }
        text("header.title", title.uppercased(), x: edge, y: y, width: screenWidth - 2 * edge - clockWidth - space.s,
             style: style, color: palette.textMuted)
        return headerBottom(title)
    }

    /// Where content may start below `header(title)`, without drawing it.
    func headerBottom(_ title: String) -> Double {
        let style = type.label
        let height = textHeight(title.uppercased(), width: screenWidth - 2 * edge - headerClockWidth - space.s, style: style)
        return space.m + max(height, style.linePitch) + space.m
    }

    /// The room the header's clock takes on the right (none without a trusted clock).
    private var headerClockWidth: Double {
        guard let clock = model.clock else { return 0 }
        return textWidth(clock.text, style: type.label, tabular: true) + space.s
    }

    /// The PLAY strip's words: body size, or a step smaller on a small panel, where room is short.
    var stripStyle: TextStyle {
        guard screenHeight < 400 else { return type.body }
        var style = type.caption
        style.weight = .medium
        return style
    }

    /// What PLAY does from here, as text (`Interface.playIntent`: what the press does).
    func playMeaning() -> (text: String, playing: Bool) {
        let player = model.player
        switch ui.playIntent(model) {
        case .stopBreathingTimer:
            return ("PLAY to stop the breathing timer", false)
        case .acceptResume(let offer):
            return ("PLAY to resume \(offer.title) at \(TimeText.clock(offer.position.seconds))", false)
        case .startBreathingTimer(onSetUp: true):
            let minutes = TimerText.minutes(ui.timerMinutesEdit ?? model.settings.timerMinutes)
            let pattern = TimerText.displayName(TimerText.patternName(model.settings.timerPattern))
            return ("PLAY to start: \(InterfaceText.minutesText(minutes)) \u{00B7} \(pattern)", false)
        case .startBreathingTimer(onSetUp: false):
            return ("PLAY to start the breathing timer \u{00B7} \(InterfaceText.minutesText(TimerText.minutes(model.settings.timerMinutes)))", false)
        case .playFromPreview(let seconds, let resume):
            return ("PLAY to play from \(TimeText.clock(seconds))", !resume)
        case .start(let session, let elsewhere):
            if case .detail(let id) = ui.screen, id == session.id { return ("PLAY to listen", false) }
            if elsewhere { return ("PLAY to listen to \(session.title) while this downloads", false) }
            return ("PLAY to listen: \(session.title) \u{00B7} \(InterfaceText.length(session.durationSeconds))", false)
        case .download(let session):
            let status = session.download
            let size = (status?.bytesTotal ?? session.downloadBytes).map { " (\(ByteCountText.text($0)))" } ?? ""
            return (status?.state == .failed ? "PLAY to retry the download\(size)" : "PLAY to download\(size)", false)
        case .pause:
            return ("PLAY to pause: \(player.title)", true)
        case .resume:
            return ("PLAY to resume: \(player.title) \u{00B7} \(TimeText.clock(player.position(at: now)))", false)
        case .again:
            if case .failed = player.phase { return ("PLAY to try again: \(player.title)", false) }
            return ("PLAY to listen again: \(player.title)", false)
        case .nothing:
            return ("Nothing on this box to play yet", false)
        }
    }

    /// The strip along the bottom that says what PLAY does (and, under it, a quieter `hint`).
    /// Returns its top.
    mutating func playStrip(_ meaning: (text: String, playing: Bool)? = nil, hint: String? = nil, quiet: Bool = false) -> Double {
        let meaning = meaning ?? playMeaning()
        let pad = tokens.cardPadding
        let icon = tokens.stripIcon
        let style = stripStyle
        let width = screenWidth - 2 * edge
        let textX = edge + pad.horizontal + icon + space.m
        let textWidth = stripTextWidth
        let mainHeight = self.textHeight(meaning.text, width: textWidth, style: style)
        let hintHeight = hint.map { self.textHeight($0, width: textWidth, style: type.caption) } ?? 0
        let textHeight = mainHeight + hintHeight
        let height = stripHeight(meaning.text, hint: hint)
        let top = screenHeight - space.m - height
        if !quiet { rect("strip", Rect(x: edge, y: top, width: width, height: height), radius: tokens.radii.large, fill: palette.surface) }
        let center = Point(x: edge + pad.horizontal + icon / 2, y: top + height / 2)
        add("strip.button", .circle(CircleShape(center: center, radius: icon / 2, fill: palette.controlFill,
                                                stroke: palette.controlRim.map { Stroke($0, width: tokens.hairline) })))
        playGlyph("strip.icon", center: center, size: icon, playing: meaning.playing, color: palette.controlIcon)
        let y = top + (height - textHeight) / 2
        text("strip.text", meaning.text, x: textX, y: y, width: textWidth, style: style,
             color: quiet ? palette.textSecondary : palette.textPrimary)
        if let hint {
            text("strip.hint", hint, x: textX, y: y + mainHeight, width: textWidth, style: type.caption, color: palette.textSecondary)
        }
        return top
    }

    /// The width the PLAY strip's words wrap at.
    private var stripTextWidth: Double {
        let pad = tokens.cardPadding
        return screenWidth - 2 * edge - 2 * pad.horizontal - tokens.stripIcon - space.m
    }

    /// The PLAY strip's height with `text` and `hint`, without drawing it.
    func stripHeight(_ text: String, hint: String?) -> Double {
        let mainHeight = textHeight(text, width: stripTextWidth, style: stripStyle)
        let hintHeight = hint.map { textHeight($0, width: stripTextWidth, style: type.caption) } ?? 0
        return max(tokens.stripIcon, mainHeight + hintHeight) + 2 * tokens.cardPadding.vertical
    }

    // MARK: Lists

    /// Lays `blocks` out down `viewport`, scrolled so the focused block shows, and draws the ones that
    /// fit whole (the focused one always). Chevrons in the right margin say there is more. With
    /// `keepTop` the list does not scroll while the focus shows from the top; without it, the anchor
    /// rule alone places the focus (a transcript scrolled by hand moves with every detent).
    /// `moreBefore` and `moreAfter` say `blocks` is a window of a longer list (the transcript lays out only
    /// the cues near the reader), so the chevrons show even when the window fits.
    mutating func list(_ blocks: [Block], in viewport: Rect, focus: FocusKey?, anchor: ListAnchor = .focus(fraction: 0.35),
                       chevronID: String = "list", keepTop: Bool = true, moreBefore: Bool = false, moreAfter: Bool = false) {
        guard !blocks.isEmpty else { return }
        var tops: [Double] = []
        var y = 0.0
        for (index, block) in blocks.enumerated() {
            if index > 0 { y += block.gap }
            tops.append(y)
            y += block.height
        }
        let total = y
        let focusIndex = blocks.firstIndex { $0.key != nil && $0.key == focus } ?? 0
        var offset = 0.0
        if total > viewport.height {
            let fraction: Double
            switch anchor {
            case .focus(let value): fraction = value
            }
            let focusTop = tops[focusIndex], focusHeight = blocks[focusIndex].height
            // Never scroll when the focus shows without it: the top of a screen stays in view.
            if keepTop && focusTop + focusHeight <= viewport.height { offset = 0 } else {
            let desired = min(max(0, focusTop - max(0, viewport.height - focusHeight) * fraction), total - viewport.height)
            let up = tops.filter { $0 <= desired + 0.001 }.max() ?? 0
            if focusTop + focusHeight <= up + viewport.height + 0.001 {
                offset = up
            } else {
                offset = tops.filter { $0 >= desired - 0.001 }.min() ?? focusTop
            }
            }
        }
        var hiddenAbove = moreBefore, hiddenBelow = moreAfter
        for (index, block) in blocks.enumerated() {
            let top = tops[index] - offset
            let fits = top >= -0.001 && top + block.height <= viewport.height + 0.001
            if !fits && index != focusIndex {
                if top < 0 { hiddenAbove = true } else { hiddenBelow = true }
                continue
            }
            let frame = Rect(x: viewport.x, y: viewport.y + top, width: viewport.width, height: block.height)
            block.draw(&self, frame, block.key != nil && block.key == focus)
        }
        let size = max(8, (space.s * 1.5).rounded())
        let x = viewport.maxX + min(edge / 2, space.m + size / 2)
        if hiddenAbove {
            chevron(chevronID + ".more.up", center: Point(x: x, y: viewport.y + size), size: size, direction: -1, color: palette.textMuted)
        }
        if hiddenBelow {
            chevron(chevronID + ".more.down", center: Point(x: x, y: viewport.maxY - size), size: size, direction: 1, color: palette.textMuted)
        }
    }

    /// A block of running text (a heading, an explanation) with no focus.
    func paragraph(_ id: String, _ text: String, width: Double, style: TextStyle, color: Color, weight: FontWeight? = nil,
                   gap: Double) -> Block {
        let height = textHeight(text, width: width, style: style, weight: weight)
        return Block(id: id, key: nil, height: height, gap: gap) { canvas, frame, _ in
            canvas.text(id, text, x: frame.x, y: frame.y, width: frame.width, style: style, color: color, weight: weight)
        }
    }

    /// A reading stop: a sentence with a quiet bar at its left while focused.
    func readingBlock(_ id: String, _ text: String, key: FocusKey, width: Double, style: TextStyle, color: Color, gap: Double) -> Block {
        let height = textHeight(text, width: width, style: style)
        return Block(id: id, key: key, height: height, gap: gap) { canvas, frame, focused in
            if focused { canvas.marginBar(id + ".bar", frame) }
            canvas.text(id, text, x: frame.x, y: frame.y, width: frame.width, style: style,
                        color: focused ? canvas.palette.textPrimary : color)
        }
    }

    /// The quiet mark in the left margin beside the focused (or spoken) line of reading.
    mutating func marginBar(_ id: String, _ frame: Rect) {
        let bar = max(3, tokens.hairline * 2)
        rect(id, Rect(x: frame.x - bar - max(space.s, (edge / 3).rounded()), y: frame.y + 2, width: bar, height: max(0, frame.height - 4)),
             radius: bar / 2, fill: palette.accent)
    }

    /// A button: a rounded row with a centred or leading label; filled with the accent while focused.
    func buttonBlock(_ id: String, _ title: String, key: FocusKey, width: Double, gap: Double, attention: Bool = false) -> Block {
        let pad = tokens.cardPadding
        let style = tokens.rowTitle
        let natural = textWidth(title, style: style) + 2 * space.l
        let buttonWidth = min(width, max(natural, min(width, (tokens.type.body.size * 11).rounded())))
        let textHeight = self.textHeight(title, width: buttonWidth - 2 * pad.horizontal, style: style)
        let height = textHeight + 2 * pad.vertical
        return Block(id: id, key: key, height: height, gap: gap) { canvas, frame, focused in
            let p = canvas.palette
            let box = Rect(x: frame.x, y: frame.y, width: buttonWidth, height: frame.height)
            canvas.rect(id, box, radius: canvas.tokens.radii.medium, fill: focused ? p.accent : p.surface)
            if focused { canvas.focusRing(id + ".ring", box, radius: canvas.tokens.radii.medium) }
            canvas.text(id + ".text", title, x: box.x + pad.horizontal, y: box.y + pad.vertical, width: box.width - 2 * pad.horizontal,
                        style: style, color: focused ? p.onAccent : (attention ? p.attention : p.textPrimary), alignment: .center)
        }
    }
}
