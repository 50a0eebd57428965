import FoundationEssentials
import StillroomCore

/// The control protocol between `stillroomd` and `stillroomctl`: one JSON object per line.
///
///     → {"v":1,"id":7,"command":"seek","arguments":{"to":"4:30"}}
///     ← {"v":1,"id":7,"ok":true,"result":{...}}
///     ← {"v":1,"id":7,"ok":false,"error":{"code":"not_found","message":"..."}}
///
/// Unknown fields are ignored, so either side can grow without breaking the other; the version changes
/// only when a field's meaning changes.
public enum ControlProtocol {
    public static let version = 1
    /// Longest line accepted, newline excluded. A request is a few hundred bytes; this is generous.
    public static let maximumLineBytes = 64 * 1024
}

/// What went wrong, by kind (the code) and in words (the message says what to do).
public struct ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case badRequest = "bad_request"
        case unsupportedVersion = "unsupported_version"
        case unknownCommand = "unknown_command"
        case invalidArgument = "invalid_argument"
        case notFound = "not_found"
        case notPermitted = "not_permitted"
        case tooLong = "too_long"
        /// The daemon already serves as many clients as it takes; try again in a moment.
        case busy
        case failed
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// A command to the daemon.
public struct ControlRequest: Equatable, Sendable {
    public var id: Int
    public var command: String
    public var arguments: [String: JSONValue]

    public init(id: Int, command: String, arguments: [String: JSONValue] = [:]) {
        self.id = id
        self.command = command
        self.arguments = arguments
    }

    public func argument(_ name: String) -> String? { arguments[name]?.stringValue }
}

/// The daemon's answer to one request.
public struct ControlResponse: Equatable, Sendable {
    public var id: Int?
    public var outcome: Result<JSONValue, ControlError>

    public init(id: Int?, outcome: Result<JSONValue, ControlError>) {
        self.id = id
        self.outcome = outcome
    }
}

extension ControlError.Code {
    init(wire: String) { self = Self(rawValue: wire) ?? .failed }
}

/// A request line that could not be understood: the error to answer with, and its id when readable.
public struct RejectedRequest: Error, Equatable, Sendable {
    public var id: Int?
    public var error: ControlError

    public init(id: Int?, error: ControlError) {
        self.id = id
        self.error = error
    }
}
