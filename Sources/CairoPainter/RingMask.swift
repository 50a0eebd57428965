internal import CCairo
import StillroomCore

/// A ring's coverage, rasterised once into an alpha mask. The breathing circle's guide ring never moves,
/// but the circle's damage cuts across it on most frames; painting its colour through the kept mask costs
/// a fraction of rasterising its two anti-aliased outlines again, and gives the same pixels whatever the
/// damage (cairo's rasteriser, clipped, gives the edge pixels at a clip's border a slightly different
/// coverage, which then stayed on screen until that part of the ring was repainted).
final class RingMask {
    /// What the mask was made for: a ring of this radius and width, centred this far into a pixel.
    struct Shape: Equatable {
        var radius: Double
        var width: Double
        var fractionX: Double
        var fractionY: Double
    }

    /// Larger rings are drawn in place (a mask is a byte a pixel of the ring's box).
    static let maximumPixels = 1 << 20

    let shape: Shape
    let surface: OpaquePointer
    /// The mask's top left corner relative to the ring's centre rounded down (whole pixels).
    let offset: Int
    let side: Int

    init?(_ shape: Shape) {
        let reach = shape.radius + shape.width / 2 + 1
        let offset = Int(reach.rounded(.up)) + 1
        let side = 2 * offset + 1
        guard shape.radius > 0, shape.width > 0, side * side <= Self.maximumPixels,
              let surface = makeImageSurface(CAIRO_FORMAT_A8, width: side, height: side) else { return nil }
        let cairo = cairo_create(surface)
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_FAST)
        cairo_set_tolerance(cairo, 0.5)
        cairo_arc(cairo, Double(offset) + shape.fractionX, Double(offset) + shape.fractionY, shape.radius, 0, 2 * Double.pi)
        cairo_close_path(cairo)
        cairo_set_line_width(cairo, shape.width)
        cairo_set_source_rgba(cairo, 0, 0, 0, 1)
        cairo_stroke(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        self.shape = shape
        self.surface = surface
        self.offset = offset
        self.side = side
    }

    deinit { cairo_surface_destroy(surface) }
}
