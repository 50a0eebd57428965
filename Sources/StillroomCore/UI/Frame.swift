/// A picture in memory: `width × height` pixels of 32 bits, rows packed (`stride == width * 4`).
///
/// Each pixel is 0xAARRGGBB in native byte order — cairo's ARGB32/RGB24 layout and DRM's XRGB8888 on
/// a little-endian machine, so a frame can be painted by cairo and copied to a dumb buffer as is. The
/// top byte is ignored for opaque frames (painters may leave it undefined, as cairo's RGB24 does).
///
/// A class that owns its memory, so a painter can draw into it in place and displays can read it
/// without copies. Not thread-safe; frames live on the loop's thread.
public final class Frame {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public var stride: Int { width * 4 }
    /// The pixels, row after row. Valid for the frame's lifetime.
    public let pixels: UnsafeMutablePointer<UInt32>

    public init(width: Int, height: Int, fill: UInt32 = 0xFF00_0000) {
        precondition(width > 0 && height > 0, "a frame has pixels")
        self.width = width
        self.height = height
        pixels = .allocate(capacity: width * height)
        pixels.initialize(repeating: fill, count: width * height)
    }

    public convenience init(size: PixelSize, fill: UInt32 = 0xFF00_0000) {
        self.init(width: size.width, height: size.height, fill: fill)
    }

    deinit { pixels.deallocate() }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The pixel at (x, y), 0xAARRGGBB.
    public subscript(x: Int, y: Int) -> UInt32 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(size)")
            return pixels[y * width + x]
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(size)")
            pixels[y * width + x] = newValue
        }
    }

    /// The red, green and blue bytes of the pixel at (x, y).
    public func rgb(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let pixel = self[x, y]
        return (UInt8(truncatingIfNeeded: pixel >> 16), UInt8(truncatingIfNeeded: pixel >> 8), UInt8(truncatingIfNeeded: pixel))
    }

    /// An independent copy.
    public func copy() -> Frame {
        let twin = Frame(width: width, height: height)
        twin.pixels.update(from: pixels, count: width * height)
        return twin
    }

    /// Copies `rect` from `source` (same size) into the same place in this frame.
    public func copy(_ rect: PixelRect, from source: Frame) {
        precondition(source.size == size, "frames differ in size")
        let area = rect.intersection(PixelRect(size: size))
        guard !area.isEmpty else { return }
        for row in area.y..<area.maxY {
            (pixels + row * width + area.x).update(from: source.pixels + row * width + area.x, count: area.width)
        }
    }

    /// Whether `rect` holds the same colours (the top byte ignored) in both frames.
    public func sameColors(in rect: PixelRect, as other: Frame) -> Bool {
        precondition(other.size == size, "frames differ in size")
        let area = rect.intersection(PixelRect(size: size))
        guard !area.isEmpty else { return true }
        for row in area.y..<area.maxY {
            let mine = pixels + row * width + area.x, theirs = other.pixels + row * width + area.x
            for column in 0..<area.width where (mine[column] ^ theirs[column]) & 0x00FF_FFFF != 0 { return false }
        }
        return true
    }
}
