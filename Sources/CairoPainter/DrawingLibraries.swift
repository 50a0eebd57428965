internal import CDrawing

/// cairo and pango, loaded on first use rather than at exec (CDrawing): the screen is set up after
/// READY=1, and what PLAY needs should not wait for 38 libraries it never calls. Every public way into
/// the painter that calls them loads them first, so a box without them says so as a PainterError (and
/// plays on without a screen) instead of stopping.
enum DrawingLibraries {
    static func load() throws(PainterError) {
        if let reason = stillroom_drawing_load() {
            throw PainterError(.libraryMissing, "cannot draw: \(String(cString: reason))")
        }
    }
}
