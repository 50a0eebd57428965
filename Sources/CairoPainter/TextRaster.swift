internal import CCairo
internal import CPango
import StillroomCore

/// A text layout drawn once into a transparent image the size of its frame. Redrawing it is then one
/// blit instead of pango drawing the glyph run again: the breathing label sits under the moving circle
/// and is repainted on every frame of it, as is any text a moving shape overlaps. Text is greyscale
/// anti-aliased, and an image of it in premultiplied alpha composited over the screen gives the pixels
/// drawing it in place gives; the image keeps the frame's fraction of a pixel so glyphs land alike.
final class TextRaster {
    /// What the image was drawn for: any change means drawing it again.
    struct Look: Equatable {
        var color: Color
        var opacity: Double
        var frame: Rect
    }

    /// Frames larger than this (a page of transcript, say) are drawn in place: they are seldom redrawn
    /// unchanged, and an image of them would hold a lot of memory.
    static let maximumPixels = 32_768

    let look: Look
    let surface: OpaquePointer
    /// Where the image's top left corner goes on the screen (whole pixels).
    let x: Int, y: Int
    let width: Int, height: Int

    /// Nil when the frame is empty, too large, or cairo cannot make the image (the caller then draws in place).
    init?(layout: OpaquePointer, look: Look) {
        let left = look.frame.minX.rounded(.down), top = look.frame.minY.rounded(.down)
        let width = Int(look.frame.maxX.rounded(.up) - left), height = Int(look.frame.maxY.rounded(.up) - top)
        guard width * height <= Self.maximumPixels,
              let surface = makeImageSurface(CAIRO_FORMAT_ARGB32, width: width, height: height) else { return nil }
        let cairo = cairo_create(surface)
        cairo_rectangle(cairo, look.frame.minX - left, look.frame.minY - top, look.frame.width, look.frame.height)
        cairo_clip(cairo)
        let color = look.color
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha * look.opacity)
        cairo_move_to(cairo, look.frame.minX - left, look.frame.minY - top)
        pango_cairo_show_layout(cairo, layout)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        self.look = look
        self.surface = surface
        x = Int(left)
        y = Int(top)
        self.width = width
        self.height = height
    }

    deinit { cairo_surface_destroy(surface) }
}
