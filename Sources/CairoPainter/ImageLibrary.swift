internal import CCairo
import Glibc

/// PNG pictures by name from one folder (`<folder>/<name>.png`), loaded on first use and kept.
/// A name that cannot be loaded draws nothing and is listed in `missing`, once.
public final class ImageLibrary {
    public let folder: String
    /// Names that were asked for but could not be loaded.
    public private(set) var missing: Set<String> = []
    private var loaded: [String: OpaquePointer] = [:]

    public init(folder: String) { self.folder = folder }

    deinit { for surface in loaded.values { cairo_surface_destroy(surface) } }

    func surface(named name: String) -> OpaquePointer? {
        if let surface = loaded[name] { return surface }
        guard !missing.contains(name), !name.contains("/"), !name.hasPrefix(".") else {
            missing.insert(name)
            return nil
        }
        let surface = cairo_image_surface_create_from_png(folder + "/" + name + ".png")!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            missing.insert(name)
            return nil
        }
        loaded[name] = surface
        return surface
    }
}
