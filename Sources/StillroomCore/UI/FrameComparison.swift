/// How two frames differ, pixel by pixel: what golden-image tests and "did this frame change" ask.
public struct FrameComparison: Sendable {
    /// Pixels whose largest channel difference is above the tolerance.
    public let mismatchedPixels: Int
    /// The largest channel difference anywhere (0...255).
    public let largestDifference: Int
    /// The smallest rectangle holding every differing pixel (any difference, tolerance aside), or nil.
    public let changedArea: PixelRect?

    /// Compares colours (the top byte ignored); `tolerance` is per channel, 0...255.
    public init(_ a: Frame, _ b: Frame, tolerance: Int = 0) {
        precondition(a.size == b.size, "frames differ in size: \(a.size) and \(b.size)")
        var mismatched = 0, largest = 0
        var left = Int.max, top = Int.max, right = -1, bottom = -1
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixels[y * a.width + x], q = b.pixels[y * a.width + x]
                if (p ^ q) & 0x00FF_FFFF == 0 { continue }
                let difference = Self.channelDifference(p, q)
                largest = max(largest, difference)
                if difference > tolerance { mismatched += 1 }
                left = min(left, x); right = max(right, x)
                top = min(top, y); bottom = max(bottom, y)
            }
        }
        mismatchedPixels = mismatched
        largestDifference = largest
        changedArea = right < 0 ? nil : PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// The largest of the three channel differences between two 0xAARRGGBB pixels.
    public static func channelDifference(_ p: UInt32, _ q: UInt32) -> Int {
        var largest = 0
        for shift in [16, 8, 0] as [UInt32] {
            let a = Int((p >> shift) & 0xFF), b = Int((q >> shift) & 0xFF)
            largest = max(largest, abs(a - b))
        }
        return largest
    }

    /// A picture of the differences: bright red wherever they differ (brighter for larger differences),
    /// a dim grey of `a` elsewhere so the place can be recognised.
    public static func diffImage(_ a: Frame, _ b: Frame) -> Frame {
        precondition(a.size == b.size, "frames differ in size")
        let image = Frame(width: a.width, height: a.height)
        for index in 0..<(a.width * a.height) {
            let p = a.pixels[index], q = b.pixels[index]
            let difference = channelDifference(p, q)
            if difference == 0 {
                let grey = ((p >> 16 & 0xFF) + (p >> 8 & 0xFF) + (p & 0xFF)) / 24
                image.pixels[index] = 0xFF00_0000 | grey << 16 | grey << 8 | grey
            } else {
                let red = UInt32(min(255, 192 + difference))
                image.pixels[index] = 0xFF00_0000 | red << 16
            }
        }
        return image
    }
}
