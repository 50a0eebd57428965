/// The one number grammar for what people type (the CLI's values and settings): plain decimal digits, and
/// for seconds a fraction after one point. No sign, no hex ("0x10"), no exponent ("1p3", "1e3"), no
/// spaces, nothing Swift's own `Int(_:)` or `Double(_:)` also take. docs/control.md, "Numbers".
public enum DecimalText {
    /// A whole number: 1 to 9 ASCII digits ("007" is 7).
    public static func wholeNumber(_ text: some StringProtocol) -> Int? {
        let bytes = Array(text.utf8)
        guard (1...9).contains(bytes.count), bytes.allSatisfy(isDigit) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// A whole number that may be negative ("-2": the live notices' ids), else as `wholeNumber`.
    public static func integer(_ text: some StringProtocol) -> Int? {
        guard text.hasPrefix("-") else { return wholeNumber(text) }
        return wholeNumber(text.dropFirst()).map { -$0 }
    }

    /// A decimal: digits, optionally a point and more digits ("90", "1.5", "0.25"); 1 to 15 digits in all.
    public static func decimal(_ text: some StringProtocol) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.utf8.allSatisfy(isDigit) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard parts.count == 1 || !fraction.isEmpty, fraction.utf8.allSatisfy(isDigit),
              whole.utf8.count + fraction.utf8.count <= 15 else { return nil }
        return Double(String(text))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
