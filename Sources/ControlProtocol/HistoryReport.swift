import StillroomCore

/// Practice history's months as the CLI and the protocol write them. The answers themselves are
/// `HistoryMonthReport` and `RecentRunsReport`, built by the daemon (and by the CLI reading the database
/// itself when the daemon is down), so both have the same shape.
public enum HistoryReport {
    /// "2026-11" into a month; nil for anything else, and for years no practice can have (the box counts
    /// time from 1970: "0000-01" is a slip, not a month with history).
    public static func parseMonth(_ text: String) -> CivilMonth? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), monthYears.contains(year) else {
            return nil
        }
        return CivilMonth(year: year, month: month)
    }

    /// The years `parseMonth` accepts.
    public static let monthYears = 1970...9999

    /// What `--month` takes, for messages.
    public static let monthRangeText = "(a year from 1970, a month from 01 to 12)"
}
