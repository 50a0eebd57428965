/// Times as people read them.
public enum TimeText {
    /// "4:05", "1:02:03": a position or a length in a recording (seconds rounded down).
    public static func clock(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds.isFinite ? seconds : 0))
        let hours = whole / 3600
        let minutes = (whole % 3600) / 60
        let rest = whole % 60
        let twoDigits = rest < 10 ? "0\(rest)" : "\(rest)"
        if hours > 0 {
            return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(twoDigits)"
        }
        return "\(minutes):\(twoDigits)"
    }

    /// "7.3 s": a duration to a tenth of a second, as the log gives it.
    public static func seconds(_ seconds: Double) -> String { "\(NumberText.oneDecimal(seconds)) s" }
}
