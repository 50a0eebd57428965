import StillroomCore

/// Copies part of a frame into a scan-out buffer, turning it for the panel.
///
/// The destination is written row after row in increasing addresses: dumb buffers are often
/// write-combined memory, where scattered writes are slow and reads slower still (hence the RAM
/// shadow frame and no reads from the buffer at all).
public enum RotatedCopy {
    /// Copies logical `rect` of `frame` into `destination` (a panel-sized XRGB8888 buffer with
    /// `pitch` bytes per row), turned by `rotation`.
    public static func copy(_ rect: PixelRect, of frame: Frame, rotation: DisplayRotation,
                            to destination: UnsafeMutableRawPointer, pitch: Int) {
        let logical = frame.size
        let area = rect.intersection(PixelRect(size: logical))
        guard !area.isEmpty else { return }
        let source = frame.pixels
        if rotation == .none {
            for y in area.y..<area.maxY {
                let row = (destination + y * pitch).assumingMemoryBound(to: UInt32.self)
                (row + area.x).update(from: source + y * logical.width + area.x, count: area.width)
            }
            return
        }
        let panel = rotation.panelRect(area, logical: logical)
        for panelY in panel.y..<panel.maxY {
            let row = (destination + panelY * pitch).assumingMemoryBound(to: UInt32.self)
            for panelX in panel.x..<panel.maxX {
                let (x, y) = rotation.logicalPoint(x: panelX, y: panelY, logical: logical)
                row[panelX] = source[y * logical.width + x]
            }
        }
    }
}
