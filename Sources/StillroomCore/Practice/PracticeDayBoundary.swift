/// When one practice day ends and the next begins, as a local time of day (04:00 unless the owner
/// changes it), so a session at 01:30 counts for the evening it belongs to.
public struct PracticeDayBoundary: Hashable, Sendable, CustomStringConvertible {
    /// 04:00: late enough for a night owl's last session, early enough for an early riser's first.
    public static let standard = PracticeDayBoundary(validSecondsAfterMidnight: 4 * 3600)

    /// Seconds after local midnight: 0 (midnight) ... 11:59 (43 140).
    public let secondsAfterMidnight: Int

    /// Nil unless `hour` is 0...11 and `minute` 0...59: a boundary in the afternoon would split an
    /// ordinary day in two, which no setting should be able to do.
    public init?(hour: Int, minute: Int = 0) {
        guard (0...11).contains(hour), (0...59).contains(minute) else { return nil }
        self.init(validSecondsAfterMidnight: hour * 3600 + minute * 60)
    }

    /// Reads the stored setting ("04:00", "0:30"); nil for anything else.
    public init?(settingValue: String) {
        let parts = settingValue.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        self.init(hour: hour, minute: minute)
    }

    private init(validSecondsAfterMidnight seconds: Int) {
        secondsAfterMidnight = seconds
    }

    /// The form stored in settings: "04:00".
    public var settingValue: String {
        "\(twoDigits(secondsAfterMidnight / 3600)):\(twoDigits(secondsAfterMidnight % 3600 / 60))"
    }

    public var description: String { settingValue }
}
