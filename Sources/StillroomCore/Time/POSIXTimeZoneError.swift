/// Why a POSIX TZ string (a TZif footer, or the value of `TZ`) was not accepted.
public struct POSIXTimeZoneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The string as given.
    public let text: String
    /// Zero-based offset, in bytes of the UTF-8 text (characters, for the ASCII that TZ strings use).
    public let position: Int
    public let reason: String

    public init(text: String, position: Int, reason: String) {
        self.text = text
        self.position = position
        self.reason = reason
    }

    public var description: String {
        "TZ string \(quotedForMessage(text)) at position \(position + 1): \(reason)"
    }
}
