internal import CCairo
internal import CPango
import StillroomCore

// Text through pango: shaping (any script, through HarfBuzz), wrapping at word boundaries, a line cap
// with "…", alignment that follows the paragraph's direction. A layout is expensive to make and cheap to
// draw, so layouts are kept per node and reused while the text and its style stay the same: the
// breathing label is redrawn on every frame of the circle, but laid out once.

/// What a layout depends on: a text run without its position and colour.
struct LayoutKey: Hashable {
    var text: String
    var width: Double
    var role: FontRole
    var size: Double
    var weight: FontWeight
    var alignment: TextAlignment
    var maxLines: Int
    var truncation: TextTruncation
    var lineHeight: Double
    var tabularFigures: Bool
    var letterSpacing: Double

    init(_ run: TextRun) {
        text = run.text
        width = run.frame.width
        role = run.role
        size = run.size
        weight = run.weight
        alignment = run.alignment
        maxLines = run.maxLines
        truncation = run.truncation
        lineHeight = run.lineHeight
        tabularFigures = run.tabularFigures
        letterSpacing = run.letterSpacing
    }
}

/// A pango layout owned by the cache (released with it).
final class TextLayout {
    let key: LayoutKey
    let layout: OpaquePointer
    /// The layout drawn as it was last shown (nil until drawn, or when too large to keep as an image).
    var raster: TextRaster?

    init(key: LayoutKey, layout: OpaquePointer) {
        self.key = key
        self.layout = layout
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }
}

/// Layouts by node, made in one pango context with fixed font options.
final class TextLayouts {
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer
    private let fonts: FontSet
    private var byNode: [NodeID: TextLayout] = [:]
    /// Layouts made (not reused): for tests and benchmarks.
    private(set) var made = 0

    init(fonts: FontSet) {
        self.fonts = fonts
        fontMap = pango_cairo_font_map_new()
        context = pango_font_map_create_context(fontMap)
        // Fixed rendering options, not the machine's fontconfig defaults: the same pixels everywhere
        // (golden images), greyscale anti-aliasing (panels have unknown subpixel order, and some are
        // mounted sideways), light hinting, and unhinted metrics so layout does not depend on size snapping.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        // Device units are pixels: sizes are given as absolute sizes, so the resolution does not matter.
        pango_cairo_context_set_resolution(context, 96)
    }

    deinit {
        byNode.removeAll()
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// The layout for `run` in node `id`, reused when nothing that shapes it changed.
    func layout(for id: NodeID, _ run: TextRun) -> TextLayout {
        let key = LayoutKey(run)
        if let cached = byNode[id], cached.key == key { return cached }
        let made = TextLayout(key: key, layout: makeLayout(key))
        byNode[id] = made
        self.made += 1
        return made
    }

    /// Drops layouts of nodes no longer on screen.
    func keepOnly(_ ids: Set<NodeID>) {
        for id in byNode.keys where !ids.contains(id) { byNode[id] = nil }
    }

    /// The width in pixels of `run` laid out on one line (no wrapping): for layouts that reflow.
    func singleLineWidth(of run: TextRun) -> Double {
        var key = LayoutKey(run)
        key.width = 1_000_000
        key.maxLines = 1
        key.truncation = .none
        let layout = makeLayout(key)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        return Double(logical.width) / Double(PANGO_SCALE)
    }

    /// Lines `run` wraps to at its frame's width, with no line cap: for layouts that reflow.
    func wrappedLineCount(of run: TextRun) -> Int {
        var key = LayoutKey(run)
        key.truncation = .none
        let layout = makeLayout(key)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        return Int(pango_layout_get_line_count(layout))
    }

    /// Glyphs the fonts could not draw (shown as boxes) in a fresh layout of `run`: for tests.
    func unknownGlyphs(in run: TextRun) -> Int {
        let layout = makeLayout(LayoutKey(run))
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        return Int(pango_layout_get_unknown_glyphs_count(layout))
    }

    /// Lines the text takes once wrapped and cut: for tests.
    func lineCount(of run: TextRun) -> Int {
        let layout = makeLayout(LayoutKey(run))
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        return Int(pango_layout_get_line_count(layout))
    }

    /// Whether pango cut the text short with an ellipsis: for tests.
    func isEllipsized(_ run: TextRun) -> Bool {
        let layout = makeLayout(LayoutKey(run))
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        return pango_layout_is_ellipsized(layout) != 0
    }

    private func makeLayout(_ key: LayoutKey) -> OpaquePointer {
        let layout = pango_layout_new(context)!
        let description = pango_font_description_new()
        pango_font_description_set_family(description, fonts.family(for: key.role))
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(key.weight.rawValue)))
        pango_font_description_set_absolute_size(description, key.size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)

        pango_layout_set_width(layout, Int32(clamping: Int((key.width * Double(PANGO_SCALE)).rounded(.down))))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        switch key.truncation {
        case .end: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        case .middle: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_MIDDLE)
        case .none: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        }
        // A negative height caps the number of lines; the last one is ellipsized.
        if key.truncation != .none { pango_layout_set_height(layout, Int32(-key.maxLines)) }
        switch key.alignment {
        case .leading: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .trailing: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }

        let attributes = pango_attr_list_new()
        // Each line box is exactly size × lineHeight tall (CSS-like), so frames computed by the core fit.
        let pitch = Int32((key.size * key.lineHeight * Double(PANGO_SCALE)).rounded())
        pango_attr_list_insert(attributes, pango_attr_line_height_new_absolute(pitch))
        if key.tabularFigures { pango_attr_list_insert(attributes, pango_attr_font_features_new("tnum")) }
        if key.letterSpacing != 0 {
            pango_attr_list_insert(attributes, pango_attr_letter_spacing_new(
                Int32((key.letterSpacing * Double(PANGO_SCALE)).rounded())))
        }
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)

        pango_layout_set_text(layout, key.text, -1)
        return layout
    }
}
