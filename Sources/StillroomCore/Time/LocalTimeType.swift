/// One kind of local time a zone uses: "CET, UTC+1, standard time" or "CEST, UTC+2, daylight saving".
///
/// The corresponding TZif record is `ttinfo` (RFC 8536 §3.2); in a POSIX TZ string it is the `std` or
/// `dst` part.
public struct LocalTimeType: Hashable, Sendable, CustomStringConvertible {
    /// Seconds to add to UTC to get local time (east of Greenwich is positive: CET is +3600).
    public let utcOffset: Int32
    public let isDaylightSaving: Bool
    /// The designation, as in "CEST" or "+0530"; may be empty in a TZif file.
    public let abbreviation: String

    public init(utcOffset: Int32, isDaylightSaving: Bool, abbreviation: String) {
        self.utcOffset = utcOffset
        self.isDaylightSaving = isDaylightSaving
        self.abbreviation = abbreviation
    }

    public var description: String {
        "\(abbreviation.isEmpty ? "-" : abbreviation) \(LocalDateTime.offsetText(utcOffset))\(isDaylightSaving ? " DST" : "")"
    }
}
