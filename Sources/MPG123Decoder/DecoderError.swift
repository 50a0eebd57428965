/// Why an MP3 could not be opened or decoded. Every kind ends in a clear error state, never a crash.
public struct DecoderError: Error, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The file does not exist.
        case missing
        /// The file exists but cannot be read (permissions, I/O error).
        case unreadable
        /// The file is empty.
        case empty
        /// No MPEG audio was found in the file.
        case notMP3
        /// MPEG audio was found but is damaged beyond what the decoder resynchronises over.
        case corrupt
        /// The library itself failed (out of memory, unsupported build).
        case library
    }

    public let kind: Kind
    public let path: String
    public let detail: String

    public init(_ kind: Kind, path: String, detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path): \(kind.rawValue): \(detail)" }
}
