import Devices
import Glibc
import StillroomCore
import SystemCalls

/// A display with no panel behind it: it keeps the last frame in memory and, given a path and a
/// writer, saves it as PNG whenever a present actually changed pixels. Tests, the simulator
/// (`--display png:PATH`) and screenshots use it.
///
/// Files are written whole: to `PATH.tmp`, then renamed over `PATH`, so a viewer refreshing the file
/// never sees half a picture. Never busy: a present completes at once.
public final class OffscreenDisplay: Display {
    public weak var delegate: DisplayDelegate?
    public let size: PixelSize
    public let pngPath: String?
    public var name: String { pngPath.map { "png:\($0)" } ?? "offscreen" }
    public let isBusy = false
    public private(set) var isPowered = true

    /// What the screen shows now.
    public let frame: Frame
    /// Presents received, and how many of them changed pixels.
    public private(set) var presentCount = 0
    public private(set) var changedFrameCount = 0
    /// The damage of the last present.
    public private(set) var lastDamage: [PixelRect] = []
    /// PNG files written.
    public private(set) var writeCount = 0
    /// Called after a present that changed pixels (the simulator prints a terminal preview from it).
    public var onFrameChanged: ((Frame) -> Void)?

    private let writer: FrameImageWriter?

    /// `pngPath` and `writer` together save each changed frame; without them the display only keeps it.
    public init(size: PixelSize, pngPath: String? = nil, writer: FrameImageWriter? = nil) {
        precondition((pngPath == nil) == (writer == nil), "a PNG path needs a writer")
        self.size = size
        self.pngPath = pngPath
        self.writer = writer
        frame = Frame(size: size)
    }

    public func present(_ frame: Frame, damage: [PixelRect]) throws(DisplayError) {
        precondition(frame.size == size, "frame \(frame.size) on a \(size) display")
        guard isPowered else { return }
        presentCount += 1
        lastDamage = damage
        // Only a file or a listener needs to know whether pixels changed; the first present always
        // counts (the file must exist even for a frame that matches the start).
        let watched = pngPath != nil || onFrameChanged != nil
        let changed = presentCount == 1 || !watched || damage.contains { !self.frame.sameColors(in: $0, as: frame) }
        for rect in damage { self.frame.copy(rect, from: frame) }
        guard changed else { return }
        changedFrameCount += 1
        try save()
        onFrameChanged?(self.frame)
    }

    public func setPowered(_ on: Bool) throws(DisplayError) { isPowered = on }

    public func close() {}

    /// Writes the current frame now (a screenshot), whether or not it changed.
    public func save() throws(DisplayError) {
        guard let pngPath, let writer else { return }
        let temporary = pngPath + ".tmp"
        try writer.writePNG(frame, to: temporary)
        do throws(SystemError) {
            try Files.rename(temporary, to: pngPath)
        } catch {
            _ = unlink(temporary) // best effort: the rename's error is the one worth reporting
            throw DisplayError(.failed, "cannot replace \(pngPath): \(error.reason)")
        }
        writeCount += 1
    }
}
