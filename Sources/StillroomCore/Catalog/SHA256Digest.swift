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

    /// The digest whose 32 bytes are `bytes`, as a hasher returns them.
    public init(bytes: some Collection<UInt8>) {
        precondition(bytes.count == 32, "a SHA-256 digest is 32 bytes, not \(bytes.count)")
        let digits = Array("0123456789abcdef".unicodeScalars)
        var hex = ""
        hex.reserveCapacity(64)
        for byte in bytes {
            hex.unicodeScalars.append(digits[Int(byte >> 4)])
            hex.unicodeScalars.append(digits[Int(byte & 0xF)])
        }
        self.hex = hex
    }

    public var description: String { hex }
}
