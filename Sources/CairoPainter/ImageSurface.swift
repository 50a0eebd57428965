internal import CCairo

/// A new cairo image surface of `format`, or nil when cairo cannot make it (the caches that keep one then
/// draw in place instead).
func makeImageSurface(_ format: cairo_format_t, width: Int, height: Int) -> OpaquePointer? {
    guard width > 0, height > 0, let surface = cairo_image_surface_create(format, Int32(width), Int32(height)) else { return nil }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
        cairo_surface_destroy(surface)
        return nil
    }
    return surface
}
