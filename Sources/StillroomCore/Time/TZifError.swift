/// Why bytes were not accepted as a TZif file (RFC 8536).
public enum TZifError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The data ends before `section` does: `needed` bytes from `offset`, `available` there.
    case truncated(section: String, offset: Int, needed: Int, available: Int)
    /// The file does not start with "TZif" (or the version 2+ header does not).
    case badMagic(offset: Int)
    /// A version byte other than NUL, "2", "3" or "4".
    case unsupportedVersion(UInt8)
    /// A header count that the format forbids (typecnt 0, isutcnt neither 0 nor typecnt, ...).
    case invalidCount(String)
    /// Transition times (or leap-second occurrences) that do not strictly ascend.
    case notAscending(section: String, index: Int)
    /// A transition names a local time type that does not exist.
    case transitionTypeOutOfRange(transition: Int, type: Int, typeCount: Int)
    /// A local time type's fields are not valid: the UTC offset -2^31, a designation index past the
    /// characters, a flag that is neither 0 nor 1.
    case invalidLocalTimeType(index: Int, reason: String)
    /// A boolean indicator (standard/wall or UT/local) that is neither 0 nor 1.
    case invalidIndicator(section: String, index: Int)
    /// The footer is not "\n" TZ-string "\n".
    case malformedFooter(String)
    /// The footer's TZ string does not parse.
    case invalidFooterRule(POSIXTimeZoneError)

    public var description: String {
        switch self {
        case .truncated(let section, let offset, let needed, let available):
            "TZif data truncated: \(section) needs \(needed) bytes at offset \(offset), only \(available) there"
        case .badMagic(let offset):
            offset == 0 ? "not a TZif file (it does not start with \"TZif\")"
                        : "not a TZif file: no \"TZif\" at the version 2+ header (offset \(offset))"
        case .unsupportedVersion(let byte):
            "TZif version byte \(byte) is not supported (NUL, \"2\", \"3\" or \"4\" are)"
        case .invalidCount(let reason):
            "TZif header: \(reason)"
        case .notAscending(let section, let index):
            "TZif \(section) are not in ascending order at entry \(index)"
        case .transitionTypeOutOfRange(let transition, let type, let typeCount):
            "TZif transition \(transition) names local time type \(type); there are only \(typeCount)"
        case .invalidLocalTimeType(let index, let reason):
            "TZif local time type \(index): \(reason)"
        case .invalidIndicator(let section, let index):
            "TZif \(section) indicator \(index) is neither 0 nor 1"
        case .malformedFooter(let reason):
            "TZif footer: \(reason)"
        case .invalidFooterRule(let error):
            "TZif footer: \(error)"
        }
    }
}
