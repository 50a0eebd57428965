internal import CCairo
internal import CPango
import StillroomCore

/// Draws scenes with cairo and pango into a frame in memory (the shadow buffer a display copies from).
///
/// `render` compares the scene with the last one drawn (`SceneDiff`), clips to the dirty rectangles and
/// repaints only there: the background, then every node whose bounds meet the damage, in order. A
/// breathing-circle frame thus repaints the circle's box and nothing else. Not thread-safe; one painter
/// per screen, on the loop's thread.
public final class ScenePainter {
    public let size: PixelSize
    /// The picture: what the last `render` or `paint` left. Displays read it after each render.
    public let frame: Frame
    /// The scene the frame shows now (nil before the first render or after `invalidate`).
    public private(set) var lastScene: Scene?
    /// Images by name, for `ImageRef` nodes.
    public let images: ImageLibrary?

    private let surface: OpaquePointer
    private let cairo: OpaquePointer
    let layouts: TextLayouts
    /// Masks of the rings on screen, by node.
    private var ringMasks: [NodeID: RingMask] = [:]

    /// A painter for frames of `size`. Fails when a font family of `fonts` is missing (the message
    /// names the Debian package) or cairo cannot make its surface.
    public init(size: PixelSize, fonts: FontSet = .standard, images: ImageLibrary? = nil) throws(PainterError) {
        try fonts.verify()
        self.size = size
        self.images = images
        frame = Frame(size: size)
        let stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(size.width))
        precondition(Int(stride) == frame.stride, "cairo wants stride \(stride) for RGB24")
        surface = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(frame.pixels).assumingMemoryBound(to: UInt8.self),
            CAIRO_FORMAT_RGB24, Int32(size.width), Int32(size.height), stride)
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let reason = String(cString: cairo_status_to_string(cairo_surface_status(surface)))
            cairo_surface_destroy(surface)
            throw PainterError(.cairo, "cannot make a \(size) surface: \(reason)")
        }
        cairo = cairo_create(surface)
        // Shapes: cairo's fast anti-aliasing (4×4 samples) and curves flattened to within half a pixel.
        // Rasterising the breathing circle's big arcs is most of a frame's cost; these halve it, and the
        // edges look the same on a panel (text is anti-aliased by its own font options).
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_FAST)
        cairo_set_tolerance(cairo, 0.5)
        layouts = TextLayouts(fonts: fonts)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// Draws `scene` where it differs from the last scene drawn and returns that damage (empty when
    /// nothing visible changed; the whole screen the first time).
    @discardableResult
    public func render(_ scene: Scene) -> [PixelRect] {
        precondition(scene.size == size, "a \(scene.size) scene on a \(size) painter")
        let damage = SceneDiff.damage(from: lastScene, to: scene)
        if !damage.isEmpty { paint(scene, damage: damage) }
        lastScene = scene
        return damage
    }

    /// Repaints `damage` with `scene`, whatever changed (the rest of the frame is left as it is).
    public func paint(_ scene: Scene, damage: [PixelRect]) {
        let screen = PixelRect(size: size)
        let clips = damage.map { $0.intersection(screen) }.filter { !$0.isEmpty }
        guard !clips.isEmpty else { return }
        cairo_save(cairo)
        cairo_new_path(cairo)
        for rect in clips {
            cairo_rectangle(cairo, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        }
        cairo_clip(cairo)
        cairo_new_path(cairo)

        set(scene.background)
        cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)

        for node in scene.nodes where !node.isInvisible && reaches(node, clips) {
            draw(node)
        }
        cairo_restore(cairo)
        cairo_surface_flush(surface)
        forgetWhatLeft(scene)
        lastScene = scene
    }

    /// Drops the layouts and ring masks of nodes no longer in `scene`, in one pass over its nodes.
    private func forgetWhatLeft(_ scene: Scene) {
        var texts = Set<NodeID>(), circles = Set<NodeID>()
        for node in scene.nodes {
            switch node.content {
            case .text: texts.insert(node.id)
            case .circle: circles.insert(node.id)
            default: break
            }
        }
        layouts.keepOnly(texts)
        for id in ringMasks.keys where !circles.contains(id) { ringMasks[id] = nil }
    }

    /// Forgets the last scene: the next `render` repaints everything.
    public func invalidate() { lastScene = nil }

    /// Pango layouts made so far (reused layouts do not count): for tests and benchmarks.
    public var layoutsMade: Int { layouts.made }

    /// Lines `run` takes once wrapped and capped: for tests and layout checks.
    public func lineCount(of run: TextRun) -> Int { layouts.lineCount(of: run) }

    /// Whether `run` is cut short with "…".
    public func isEllipsized(_ run: TextRun) -> Bool { layouts.isEllipsized(run) }

    /// Characters no installed font could draw in `run` (they would show as boxes).
    public func unknownGlyphs(in run: TextRun) -> Int { layouts.unknownGlyphs(in: run) }

    // MARK: Drawing nodes

    private func draw(_ node: SceneNode) {
        let opacity = node.opacity
        switch node.content {
        case .rect(let shape):
            roundedRect(shape.frame, radius: shape.cornerRadius)
            fillAndStroke(fill: shape.fill, stroke: shape.stroke, opacity: opacity)
        case .circle(let shape):
            if let glow = shape.glow, shape.glowRadius > shape.radius {
                let pattern = cairo_pattern_create_radial(shape.center.x, shape.center.y, shape.radius,
                                                          shape.center.x, shape.center.y, shape.glowRadius)
                cairo_pattern_add_color_stop_rgba(pattern, 0, glow.red, glow.green, glow.blue, glow.alpha * opacity)
                cairo_pattern_add_color_stop_rgba(pattern, 1, glow.red, glow.green, glow.blue, 0)
                cairo_set_source(cairo, pattern)
                cairo_new_path(cairo)
                cairo_arc(cairo, shape.center.x, shape.center.y, shape.glowRadius, 0, 2 * Double.pi)
                cairo_new_sub_path(cairo)
                cairo_arc_negative(cairo, shape.center.x, shape.center.y, shape.radius, 2 * Double.pi, 0)
                cairo_fill(cairo)
                cairo_pattern_destroy(pattern)
            }
            if !drawRing(node.id, shape, opacity: opacity) { drawCircle(shape, opacity: opacity) }
        case .polygon(let shape):
            cairo_new_path(cairo)
            for (index, point) in shape.points.enumerated() {
                if index == 0 { cairo_move_to(cairo, point.x, point.y) } else { cairo_line_to(cairo, point.x, point.y) }
            }
            cairo_close_path(cairo)
            fillAndStroke(fill: shape.fill, stroke: shape.stroke, opacity: opacity)
        case .progress(let bar):
            let radius = bar.frame.height / 2
            roundedRect(bar.frame, radius: radius)
            fillAndStroke(fill: bar.track, stroke: nil, opacity: opacity)
            if bar.fraction > 0 {
                let width = max(bar.frame.height, bar.frame.width * bar.fraction)
                roundedRect(Rect(x: bar.frame.x, y: bar.frame.y, width: width, height: bar.frame.height), radius: radius)
                fillAndStroke(fill: bar.fill, stroke: nil, opacity: opacity)
            }
        case .text(let run):
            let layout = layouts.layout(for: node.id, run)
            let look = TextRaster.Look(color: run.color, opacity: opacity, frame: run.frame)
            if layout.raster?.look != look { layout.raster = TextRaster(layout: layout.layout, look: look) }
            if let raster = layout.raster {
                cairo_set_source_surface(cairo, raster.surface, Double(raster.x), Double(raster.y))
                cairo_rectangle(cairo, Double(raster.x), Double(raster.y), Double(raster.width), Double(raster.height))
                cairo_fill(cairo)
                return
            }
            cairo_save(cairo)
            cairo_new_path(cairo)
            cairo_rectangle(cairo, run.frame.x, run.frame.y, run.frame.width, run.frame.height)
            cairo_clip(cairo)
            set(run.color, opacity: opacity)
            cairo_move_to(cairo, run.frame.x, run.frame.y)
            pango_cairo_show_layout(cairo, layout.layout)
            cairo_restore(cairo)
        case .image(let reference):
            guard let image = images?.surface(named: reference.name) else { return }
            let width = Double(cairo_image_surface_get_width(image)), height = Double(cairo_image_surface_get_height(image))
            guard width > 0, height > 0 else { return }
            cairo_save(cairo)
            cairo_translate(cairo, reference.frame.x, reference.frame.y)
            cairo_scale(cairo, reference.frame.width / width, reference.frame.height / height)
            cairo_set_source_surface(cairo, image, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(cairo_get_source(cairo), CAIRO_EXTEND_PAD) // edges stay solid when scaled up
            cairo_paint_with_alpha(cairo, opacity)
            cairo_restore(cairo)
        }
    }

    /// A disc and/or a ring. Where the ring covers the disc's edge, the disc is filled without
    /// anti-aliasing: whole-pixel spans fill much faster, and the ring, anti-aliased, draws the edge the
    /// eye sees.
    private func drawCircle(_ shape: CircleShape, opacity: Double) {
        cairo_new_path(cairo)
        cairo_arc(cairo, shape.center.x, shape.center.y, shape.radius, 0, 2 * Double.pi)
        cairo_close_path(cairo)
        guard let fill = shape.fill, let stroke = shape.stroke, stroke.width >= 1, stroke.color.alpha * opacity >= 1 else {
            fillAndStroke(fill: shape.fill, stroke: shape.stroke, opacity: opacity)
            return
        }
        set(fill, opacity: opacity)
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        cairo_fill_preserve(cairo)
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_FAST)
        fillAndStroke(fill: nil, stroke: stroke, opacity: opacity)
    }

    /// Paints a ring (a circle with a stroke and nothing else) through its kept mask; false when the node
    /// is not such a ring or is too large for a mask.
    private func drawRing(_ id: NodeID, _ shape: CircleShape, opacity: Double) -> Bool {
        guard shape.fill == nil, shape.glow == nil, let stroke = shape.stroke, stroke.width > 0 else { return false }
        let x = shape.center.x.rounded(.down), y = shape.center.y.rounded(.down)
        let wanted = RingMask.Shape(radius: shape.radius, width: stroke.width, fractionX: shape.center.x - x, fractionY: shape.center.y - y)
        if ringMasks[id]?.shape != wanted { ringMasks[id] = RingMask(wanted) }
        guard let mask = ringMasks[id] else { return false }
        set(stroke.color, opacity: opacity)
        cairo_mask_surface(cairo, mask.surface, x - Double(mask.offset), y - Double(mask.offset))
        return true
    }

    /// Whether any of `clips` reaches pixels `node` paints. Beyond its box, a ring (a circle with a stroke
    /// and no fill) paints nothing in its hole: a breathing circle's guide ring is skipped while the circle
    /// moves well inside it.
    private func reaches(_ node: SceneNode, _ clips: [PixelRect]) -> Bool {
        let box = PixelRect(enclosing: node.bounds)
        guard clips.contains(where: { $0.intersects(box) }) else { return false }
        guard case .circle(let ring) = node.content, ring.fill == nil, ring.glow == nil, let stroke = ring.stroke else { return true }
        let hole = ring.radius - stroke.width / 2 - 1 // a pixel's margin for the anti-aliased edge
        return clips.contains { rect in
            // The rectangle lies in the hole when its farthest corner does.
            let dx = max(abs(Double(rect.x) - ring.center.x), abs(Double(rect.maxX) - ring.center.x))
            let dy = max(abs(Double(rect.y) - ring.center.y), abs(Double(rect.maxY) - ring.center.y))
            return dx * dx + dy * dy > hole * hole
        }
    }

    private func roundedRect(_ rect: Rect, radius: Double) {
        cairo_new_path(cairo)
        let r = min(radius, rect.width / 2, rect.height / 2)
        guard r > 0 else {
            cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height)
            return
        }
        let half = Double.pi / 2
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, rect.maxX - r, rect.minY + r, r, -half, 0)
        cairo_arc(cairo, rect.maxX - r, rect.maxY - r, r, 0, half)
        cairo_arc(cairo, rect.minX + r, rect.maxY - r, r, half, 2 * half)
        cairo_arc(cairo, rect.minX + r, rect.minY + r, r, 2 * half, 3 * half)
        cairo_close_path(cairo)
    }

    /// Fills and/or strokes the current path.
    private func fillAndStroke(fill: Color?, stroke: Stroke?, opacity: Double) {
        if let fill {
            set(fill, opacity: opacity)
            if stroke != nil { cairo_fill_preserve(cairo) } else { cairo_fill(cairo) }
        }
        if let stroke, stroke.width > 0 {
            set(stroke.color, opacity: opacity)
            cairo_set_line_width(cairo, stroke.width)
            cairo_stroke(cairo)
        }
        cairo_new_path(cairo)
    }

    private func set(_ color: Color, opacity: Double = 1) {
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha * opacity)
    }
}
