/// A reason the daemon cannot start: one line that says what and where.
public struct StartupError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
