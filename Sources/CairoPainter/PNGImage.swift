internal import CCairo
import Devices
import StillroomCore

/// Frames to and from PNG files, through cairo (libpng underneath): 8-bit RGB out, anything cairo
/// reads in. Golden-image tests compare decoded pixels, never file bytes.
public enum PNGImage {
    /// Writes `frame` as an RGB PNG at `path` (replacing any file there).
    /// `frame` as the bytes of an RGB PNG file, for a writer that places the file itself (a screenshot
    /// written beside and renamed, never through a link).
    public static func encode(_ frame: Frame) throws(PainterError) -> [UInt8] {
        try DrawingLibraries.load()
        let surface = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(frame.pixels).assumingMemoryBound(to: UInt8.self),
            CAIRO_FORMAT_RGB24, Int32(frame.width), Int32(frame.height), Int32(frame.stride))
        defer { cairo_surface_destroy(surface) }
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes += UnsafeBufferPointer(start: data, count: Int(length))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PainterError(.imageFile, "cannot encode a PNG: \(String(cString: cairo_status_to_string(status)))")
        }
        return sink.bytes
    }

    public static func write(_ frame: Frame, to path: String) throws(PainterError) {
        try DrawingLibraries.load()
        let surface = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(frame.pixels).assumingMemoryBound(to: UInt8.self),
            CAIRO_FORMAT_RGB24, Int32(frame.width), Int32(frame.height), Int32(frame.stride))
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PainterError(.imageFile, "cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }

    /// Reads the PNG at `path` into an opaque frame (transparent parts come out over black).
    public static func read(_ path: String) throws(PainterError) -> Frame {
        try DrawingLibraries.load()
        let image = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(image) }
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PainterError(.imageFile, "cannot read \(path): \(String(cString: cairo_status_to_string(status)))")
        }
        let width = Int(cairo_image_surface_get_width(image)), height = Int(cairo_image_surface_get_height(image))
        guard width > 0, height > 0 else { throw PainterError(.imageFile, "\(path) has no pixels") }
        let frame = Frame(width: width, height: height)
        let target = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(frame.pixels).assumingMemoryBound(to: UInt8.self),
            CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(frame.stride))
        let cairo = cairo_create(target)
        cairo_set_source_rgb(cairo, 0, 0, 0)
        cairo_paint(cairo)
        cairo_set_source_surface(cairo, image, 0, 0)
        cairo_paint(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(target)
        cairo_surface_destroy(target)
        // RGB24 leaves the top byte undefined; make frames read from files opaque and comparable.
        for index in 0..<(width * height) { frame.pixels[index] |= 0xFF00_0000 }
        return frame
    }
}

/// The PNG writer the offscreen display uses.
public struct CairoPNGWriter: FrameImageWriter {
    public init() {}

    public func writePNG(_ frame: Frame, to path: String) throws(DisplayError) {
        do {
            try PNGImage.write(frame, to: path)
        } catch {
            throw DisplayError(.failed, error.detail)
        }
    }
}
