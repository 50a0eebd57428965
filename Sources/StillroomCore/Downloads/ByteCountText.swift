/// Sizes as people read them on a small screen: decimal units, one decimal place ("4.2 MB").
///
/// Decimal (1 MB = 1,000,000 bytes) because that is how SD cards are sold and how `df -H` counts.
public enum ByteCountText {
    public static func text(_ bytes: Int64) -> String {
        let value = max(0, bytes)
        if value < 1000 { return value == 1 ? "1 byte" : "\(value) bytes" }
        let units = ["kB", "MB", "GB", "TB"]
        var scaled = Double(value) / 1000
        var unit = 0
        while scaled >= 999.95 && unit < units.count - 1 {
            scaled /= 1000
            unit += 1
        }
        return "\(NumberText.oneDecimal(scaled)) \(units[unit])"
    }
}
