import CairoPainter
import DRMDisplay
import SimulatorDevices
import Devices
import EventLoop
import StillroomCore

/// Where the screen goes, as the `--display` option names it.
public enum DisplaySpec: Equatable, Sendable, CustomStringConvertible {
    /// The panel, through DRM/KMS, from the card nodes in `directory` (`drm:DIR`; tests point it elsewhere).
    case drm(directory: String = DisplaySpec.defaultDRMDirectory)
    /// A PNG file rewritten whenever the picture changes (the simulator, tests, screenshots).
    case png(path: String, size: PixelSize)
    /// Drawn and kept in memory, never shown or written: the whole display path but the panel, for
    /// measuring what the screen costs (bench/display-cpu) and for screenshots from a headless box.
    case memory(size: PixelSize)
    /// No screen at all: audio only.
    case none

    /// Where the kernel makes DRM card nodes.
    public static let defaultDRMDirectory = "/dev/dri"

    /// The size a PNG screen has unless the spec says otherwise: the reference 800×480 panel.
    public static let defaultPNGSize = PixelSize(width: 800, height: 480)

    /// Parses `drm` or `drm:DIR`, `none`, `memory` or `memory@WxH`, `png:PATH` (800×480) or `png@WxH:PATH`
    /// (`png@480x320:/tmp/screen.png`).
    public init(parsing text: String) throws(DisplayError) {
        switch text {
        case "drm": self = .drm()
        case _ where text.hasPrefix("drm:"):
            let directory = String(text.dropFirst(4))
            guard !directory.isEmpty else { throw DisplayError(.failed, "drm: needs a folder of card nodes (drm:/dev/dri)") }
            self = .drm(directory: directory)
        case "none": self = .none
        case "memory": self = .memory(size: Self.defaultPNGSize)
        case _ where text.hasPrefix("memory@"):
            guard let size = PixelSize(parsing: String(text.dropFirst(7))) else {
                throw DisplayError(.failed, "bad display size in \"\(text)\": use memory@800x480")
            }
            self = .memory(size: size)
        default:
            guard text.hasPrefix("png"), let colon = text.firstIndex(of: ":") else {
                throw DisplayError(.failed, "unknown display \"\(text)\": use drm, png:PATH, png@WxH:PATH, memory or none")
            }
            let head = text[..<colon], path = String(text[text.index(after: colon)...])
            guard !path.isEmpty else { throw DisplayError(.failed, "png: needs a file path (png:/tmp/screen.png)") }
            var size = Self.defaultPNGSize
            if head != "png" {
                guard head.hasPrefix("png@"), let parsed = PixelSize(parsing: String(head.dropFirst(4))) else {
                    throw DisplayError(.failed, "bad display size in \"\(head)\": use png@800x480:PATH")
                }
                size = parsed
            }
            self = .png(path: path, size: size)
        }
    }

    public var description: String {
        switch self {
        case .drm(let directory): return directory == Self.defaultDRMDirectory ? "drm" : "drm:\(directory)"
        case .none: return "none"
        case .memory(let size): return size == Self.defaultPNGSize ? "memory" : "memory@\(size)"
        case .png(let path, let size): return size == Self.defaultPNGSize ? "png:\(path)" : "png@\(size):\(path)"
        }
    }

    /// Opens the display this spec names; nil for `.none`. For `.drm`, a missing screen throws
    /// `.notFound` with a message worth logging as is; the caller then carries on without a screen.
    public func open(loop: EventLoop, preference: DRMPreference = DRMPreference(),
                     rotation: DisplayRotation = .none) throws(DisplayError) -> Display? {
        switch self {
        case .none: return nil
        case .png(let path, let size): return OffscreenDisplay(size: size, pngPath: path, writer: CairoPNGWriter())
        case .memory(let size): return OffscreenDisplay(size: size)
        case .drm(let directory):
            return try DRMDisplay.open(loop: loop, preference: preference, rotation: rotation, directory: directory)
        }
    }
}
