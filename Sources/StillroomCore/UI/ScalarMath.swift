// The pure core imports no C library, and the standard library has no transcendental functions: the
// few the UI needs (sRGB gamma for contrast) are here, by series with range reduction. Accurate to
// about 1e-15 relative error, far beyond what colour work needs.

enum ScalarMath {
    static let ln2 = 0.693_147_180_559_945_309_417_232_121_458

    /// The natural logarithm of a positive finite `x`.
    static func log(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "log of \(x)")
        // x = m * 2^e with m in [1, 2); move m to [sqrt(1/2), sqrt(2)) for a fast series.
        var exponent = Double(x.exponent)
        var m = x.significand
        if m > 1.414_213_562_373_095 {
            m /= 2
            exponent += 1
        }
        // ln(m) = 2 atanh(z), z = (m - 1) / (m + 1), |z| < 0.172.
        let z = (m - 1) / (m + 1)
        let z2 = z * z
        var term = z
        var sum = 0.0
        var k = 1.0
        while true {
            let next = sum + term / k
            if next == sum { break }
            sum = next
            term *= z2
            k += 2
        }
        return 2 * sum + exponent * ln2
    }

    /// e raised to a finite `x` (underflows to 0, overflows to infinity).
    static func exp(_ x: Double) -> Double {
        if x < -745 { return 0 }
        if x > 709.8 { return .infinity }
        // x = k ln2 + r, |r| <= ln2 / 2.
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var term = 1.0
        var sum = 1.0
        var n = 1.0
        while true {
            term *= r / n
            let next = sum + term
            if next == sum { break }
            sum = next
            n += 1
        }
        return scale(sum, byPowerOfTwo: Int(k))
    }

    /// `base` raised to `exponent`, for base >= 0.
    static func pow(_ base: Double, _ exponent: Double) -> Double {
        precondition(base >= 0, "pow of a negative base")
        if base == 0 { return exponent == 0 ? 1 : 0 }
        return exp(exponent * log(base))
    }

    private static func scale(_ value: Double, byPowerOfTwo power: Int) -> Double {
        var result = value
        var remaining = power
        // Steps keep each factor a normal Double.
        while remaining > 1000 { result *= Double(sign: .plus, exponent: 1000, significand: 1); remaining -= 1000 }
        while remaining < -1000 { result *= Double(sign: .plus, exponent: -1000, significand: 1); remaining += 1000 }
        return result * Double(sign: .plus, exponent: remaining, significand: 1)
    }
}
