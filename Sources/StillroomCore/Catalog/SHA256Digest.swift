/// A SHA-256 digest written as exactly 64 lowercase hexadecimal digits.
///
/// Lowercase only, so two spellings of one digest can never compare unequal in the downloader or the store.
public struct SHA256Digest: Sendable, Hashable, CustomStringConvertible {
    public let hex: String

    /// - Throws: `InvalidValue` if `text` is not 64 characters of `0-9a-f`.
    public init(validating text: String) throws(InvalidValue) {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 64 else {
            throw InvalidValue("is \(scalars.count) characters long; a SHA-256 digest is 64 lowercase hex digits")
        }
        for (offset, scalar) in scalars.enumerated() where !(("0"..."9").contains(scalar) || ("a"..."f").contains(scalar)) {
            let hint = ("A"..."F").contains(scalar) ? " (use lowercase)" : ""
            throw InvalidValue("has the character \(scalarName(scalar)) at position \(offset + 1), which is not a lowercase hex digit\(hint)")
        }
        hex = text
    }

    public var description: String { hex }
}
