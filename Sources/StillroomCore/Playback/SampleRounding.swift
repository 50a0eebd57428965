extension Int16 {
    /// `value` rounded half away from zero and clamped to 16 bits: exactly
    /// `Int16(max(-32768, min(32767, value.rounded())))`, without the call into libm that `rounded()` makes
    /// on a baseline x86-64 and without the trapping float-to-integer conversion, so a loop over a period
    /// of samples compiles to vector instructions (the gain stage was an eighth of lifesim's time and more
    /// than the decoder's own share of playback).
    ///
    /// Beyond ±32768 the answer is the bound whatever the rounding, so the value is limited first; inside,
    /// adding 1.5 × 2²³ rounds to the nearest integer, ties to even (the addition's one rounding), and
    /// leaves that integer in the low bits of the sum. `value − whole` is exact (the two are within ½ of
    /// each other), so a tie is seen exactly and moved away from zero.
    @inline(__always)
    public init(roundingHalfAwayClamped value: Float) {
        let limited = Swift.min(Swift.max(value, -32769), 32768)
        let magic: Float = 12_582_912
        var whole = (limited + magic) - magic
        let off = limited - whole
        if off == 0.5 && limited > 0 { whole += 1 } else if off == -0.5 && limited < 0 { whole -= 1 }
        whole = Swift.min(Swift.max(whole, -32768), 32767)
        self = Int16(truncatingIfNeeded: Int32(bitPattern: (whole + magic).bitPattern) &- Int32(bitPattern: magic.bitPattern))
    }
}
