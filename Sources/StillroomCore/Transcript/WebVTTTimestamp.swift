/// WebVTT timestamps: `mm:ss.ttt`, or `hh:mm:ss.ttt` with two or more hour digits; minutes and seconds
/// 00-59, exactly three fraction digits (the format's own rules, which make timestamps unambiguous).
enum WebVTTTimestamp {
    /// More hour digits than this is not a recording the box will ever play; refusing keeps the
    /// arithmetic far from overflow.
    private static let maximumHourDigits = 6

    static func parse(_ text: Substring) -> Duration? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let secondsPart = parts[parts.count - 1]
        guard secondsPart.utf8.count == 6, secondsPart.utf8[secondsPart.utf8.index(secondsPart.utf8.startIndex, offsetBy: 2)] == UInt8(ascii: ".") else {
            return nil
        }
        guard let seconds = digits(secondsPart.prefix(2)), seconds <= 59,
              let milliseconds = digits(secondsPart.suffix(3)),
              let minutes = digits(parts[parts.count - 2]), parts[parts.count - 2].utf8.count == 2, minutes <= 59 else {
            return nil
        }
        var hours: Int64 = 0
        if parts.count == 3 {
            let hourPart = parts[0]
            guard hourPart.utf8.count >= 2 && hourPart.utf8.count <= maximumHourDigits, let value = digits(hourPart) else { return nil }
            hours = value
        }
        return .milliseconds(((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds)
    }

    /// The value of a non-empty run of ASCII digits, else `nil`. More than 18 digits cannot be a
    /// field of a timestamp (and would overflow): refused before any arithmetic.
    private static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
