/// Numbers as people read them.
public enum NumberText {
    /// "4.2": a non-negative value to one decimal place (FoundationEssentials has no `String(format:)`).
    public static func oneDecimal(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
