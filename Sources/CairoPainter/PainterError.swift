/// Why the painter could not start or could not read or write a picture.
public struct PainterError: Error, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// cairo or pango cannot be loaded (DrawingLibraries).
        case libraryMissing
        /// A font family the look needs is not installed.
        case fontMissing
        /// cairo could not make a surface or a drawing context (out of memory, a bad size).
        case cairo
        /// A PNG file could not be read or written.
        case imageFile
    }

    public let kind: Kind
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail }
}
