/// The id of a session or a sound: 1-64 characters of `a-z`, `0-9` and `-`, starting with a letter or digit.
///
/// Ids become file and folder names on the device (downloads, checkpoints) and appear in URLs and
/// database rows, so the alphabet is kept small enough that no id can be a path trick or a lookalike.
public struct ContentID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public static let maximumLength = 64

    public let rawValue: String

    /// Accepts `text` only if it follows the id rules.
    /// - Throws: `InvalidValue` naming the first rule broken (and the offending character's code point,
    ///   so a Cyrillic "а" is told apart from a Latin "a").
    public init(validating text: String) throws(InvalidValue) {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else { throw InvalidValue("must not be empty") }
        guard scalars.count <= Self.maximumLength else {
            throw InvalidValue("is \(scalars.count) characters long; at most \(Self.maximumLength) are allowed")
        }
        for (offset, scalar) in scalars.enumerated() where !Self.isAllowed(scalar) {
            throw InvalidValue("has the character \(scalarName(scalar)) at position \(offset + 1); only a-z, 0-9 and \"-\" are allowed")
        }
        guard scalars[0] != "-" else { throw InvalidValue("must start with a letter or a digit") }
        rawValue = text
    }

    public var description: String { rawValue }

    public static func < (a: ContentID, b: ContentID) -> Bool { a.rawValue < b.rawValue }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }
}
