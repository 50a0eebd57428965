/// An sRGB colour with straight (not premultiplied) alpha, each component in 0...1.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamp(red)
        self.green = Self.clamp(green)
        self.blue = Self.clamp(blue)
        self.alpha = Self.clamp(alpha)
    }

    /// From 0xRRGGBB, as design tools write it.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
                  blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    /// The same colour at `alpha` (replacing the alpha it had).
    public func withAlpha(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    /// This colour laid over an opaque `background`: what a viewer actually sees.
    public func composited(over background: Color) -> Color {
        Color(red: red * alpha + background.red * (1 - alpha),
              green: green * alpha + background.green * (1 - alpha),
              blue: blue * alpha + background.blue * (1 - alpha))
    }

    /// How far apart two colours are: the straight-line distance between them in sRGB (0 when equal).
    public func distance(to other: Color) -> Double {
        let r = red - other.red, g = green - other.green, b = blue - other.blue
        return (r * r + g * g + b * b).squareRoot()
    }

    /// Linear interpolation towards `other` (`amount` 0 = self, 1 = other), in sRGB like the painter blends.
    public func mixed(with other: Color, amount: Double) -> Color {
        let t = Self.clamp(amount)
        return Color(red: red + (other.red - red) * t, green: green + (other.green - green) * t,
                     blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }

    /// 0xRRGGBB, each channel rounded to 8 bits.
    public var hex: UInt32 {
        UInt32((red * 255).rounded()) << 16 | UInt32((green * 255).rounded()) << 8 | UInt32((blue * 255).rounded())
    }

    public var description: String {
        let digits = String(hex, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: 6 - digits.count) + digits
        return alpha < 1 ? "#\(padded)@\(alpha)" : "#\(padded)"
    }

    private static func clamp(_ value: Double) -> Double { min(1, max(0, value.isNaN ? 0 : value)) }
}

extension Color {
    /// WCAG 2.x relative luminance of the opaque colour (alpha ignored): 0 for black, 1 for white.
    public var relativeLuminance: Double {
        func linear(_ channel: Double) -> Double {
            channel <= 0.04045 ? channel / 12.92 : ScalarMath.pow((channel + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2.x contrast ratio between two opaque colours, from 1 (same) to 21 (black on white).
    public func contrastRatio(with other: Color) -> Double {
        let a = relativeLuminance, b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}
