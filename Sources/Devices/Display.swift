import StillroomCore

/// Why a display could not be used.
public struct DisplayError: Error, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// No usable screen: no DRM device, nothing connected, no mode. The box keeps playing audio.
        case notFound
        /// The screen is there but someone else holds it (a compositor or X is DRM master).
        case busy
        /// Anything else the device or file system reported.
        case failed
    }

    public let kind: Kind
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(detail)" }
}

/// Hears from a display. Calls arrive on the loop's thread.
public protocol DisplayDelegate: AnyObject {
    /// The display finished showing the last frame (a page flip completed) and takes the next one.
    func displayReady(_ display: Display)
    /// The display failed (the device went away); it shows nothing more.
    func display(_ display: Display, failed error: DisplayError)
}

/// A screen that shows frames: a DRM/KMS panel, or an offscreen picture for tests and the simulator.
///
/// Contract: `present` shows `frame`, of which only `damage` changed since the previous present (the
/// first present, or one after a size change, passes the whole screen). While `isBusy` (a page flip in
/// flight) a display takes no frame; the caller waits for `displayReady`. A display that is given a frame
/// while busy keeps it and shows it when ready, so at most one flip is ever in flight. `setPowered(false)`
/// blanks the screen (DPMS off); frames are not presented while blank. All calls on the loop's thread.
public protocol Display: AnyObject {
    var delegate: DisplayDelegate? { get set }
    /// The size frames must have: the panel's mode, swapped for a panel mounted sideways.
    var size: PixelSize { get }
    /// A short name for logs and status ("drm:vc4 DSI-1 800x480@60", "png:/tmp/screen.png").
    var name: String { get }
    /// True while the previous frame is still being put on screen.
    var isBusy: Bool { get }
    /// Whether the panel is lit.
    var isPowered: Bool { get }

    /// Shows `frame` (of `size`); only `damage` changed since the previous present.
    func present(_ frame: Frame, damage: [PixelRect]) throws(DisplayError)

    /// Lights (true) or blanks (false) the panel.
    func setPowered(_ on: Bool) throws(DisplayError)

    /// Gives the screen back (restores what was shown before, drops DRM master). Idempotent.
    func close()
}

/// Writes a frame to a PNG file. The painter's adapter provides one (cairo's PNG writer); the
/// offscreen display takes it so it need not import a C library.
public protocol FrameImageWriter {
    func writePNG(_ frame: Frame, to path: String) throws(DisplayError)
}
