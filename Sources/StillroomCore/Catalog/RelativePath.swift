/// A path inside the content folder: 1-255 bytes of `A-Z a-z 0-9 . _ - /`, never leaving the folder.
///
/// The catalog is data, and data may be hostile or careless: a path is refused if it is absolute, climbs
/// with `..`, names a hidden file, has an empty component, or uses a backslash, so joining it to the
/// content folder can only ever name a file inside that folder.
public struct RelativePath: Sendable, Hashable, CustomStringConvertible {
    public static let maximumByteCount = 255

    public let rawValue: String

    /// Accepts `text` only if it follows the path rules.
    /// - Throws: `InvalidValue` naming the first rule broken.
    public init(validating text: String) throws(InvalidValue) {
        guard !text.isEmpty else { throw InvalidValue("must not be empty") }
        let byteCount = text.utf8.count
        guard byteCount <= Self.maximumByteCount else {
            throw InvalidValue("is \(byteCount) bytes long; at most \(Self.maximumByteCount) are allowed")
        }
        for (offset, scalar) in text.unicodeScalars.enumerated() where isControl(scalar) {
            throw InvalidValue("contains the control character \(scalarName(scalar)) at position \(offset + 1)")
        }
        guard !text.contains("\\") else { throw InvalidValue("contains a backslash; separate folders with \"/\"") }
        guard !text.hasPrefix("/") else { throw InvalidValue("is absolute; give a path relative to the content folder") }
        for (offset, scalar) in text.unicodeScalars.enumerated() where !Self.isAllowed(scalar) {
            throw InvalidValue("has the character \(scalarName(scalar)) at position \(offset + 1); only A-Z, a-z, 0-9, \".\", \"_\", \"-\" and \"/\" are allowed")
        }
        for component in text.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty {
                throw InvalidValue("has an empty component (\"//\", or \"/\" at the end)")
            }
            if component == ".." {
                throw InvalidValue("contains \"..\"; a path may not leave the content folder")
            }
            if component.hasPrefix(".") {
                throw InvalidValue("has a component starting with \".\" (\(quotedForMessage(String(component)))); hidden files are not allowed")
            }
        }
        rawValue = text
    }

    public var description: String { rawValue }

    /// The path's components, in order ("sessions", "steady-breath", "audio.mp3").
    public var components: [Substring] { rawValue.split(separator: "/") }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "." || scalar == "_" || scalar == "-" || scalar == "/"
    }
}
