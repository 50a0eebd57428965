/// Numbers as people read them.
public enum NumberText {
    /// "4.2": a non-negative value to one decimal place (FoundationEssentials has no `String(format:)`).
    public static func oneDecimal(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// "1 day", "3 days"; `plural` for nouns that do not just take an "s".
    public static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }
}
