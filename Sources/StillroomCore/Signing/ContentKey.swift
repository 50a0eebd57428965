// The maker's public keys for lists of sessions: Ed25519, each in its own PEM file (`openssl pkey -pubout`
// writes them). Only the key's 32 bytes are taken, from the one fixed DER shape an Ed25519
// SubjectPublicKeyInfo has, so nothing but a real Ed25519 key is ever handed to libcrypto.

import FoundationEssentials

/// One Ed25519 public key the box trusts to sign lists of sessions.
public struct ContentKey: Sendable, Hashable, CustomStringConvertible {
    /// The key itself (RFC 8032's 32-byte encoding).
    public let rawBytes: [UInt8]
    /// Where it came from (its file's name), for messages.
    public let name: String

    /// The DER of an Ed25519 SubjectPublicKeyInfo before the key's 32 bytes (RFC 8410, section 4).
    static let subjectPublicKeyInfoPrefix: [UInt8] = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]
    static let beginLine = "-----BEGIN PUBLIC KEY-----"
    static let endLine = "-----END PUBLIC KEY-----"

    public init(rawBytes: [UInt8], name: String) throws(InvalidValue) {
        guard rawBytes.count == 32 else { throw InvalidValue("is \(rawBytes.count) bytes; an Ed25519 key is 32") }
        self.rawBytes = rawBytes
        self.name = name
    }

    /// Reads a PEM public key file's text.
    public init(pem text: String, name: String) throws(InvalidValue) {
        let lines = text.split(whereSeparator: \.isNewline).map { String($0.filter { !$0.isWhitespace }) }
        // Compared without their spaces, as every line is.
        guard let begin = lines.firstIndex(of: Self.beginLine.filter { !$0.isWhitespace }),
              let end = lines[begin...].firstIndex(of: Self.endLine.filter { !$0.isWhitespace }) else {
            throw InvalidValue("is not a PEM public key (no \(Self.beginLine) … \(Self.endLine))")
        }
        guard let der = Data(base64Encoded: lines[(begin + 1)..<end].joined()) else {
            throw InvalidValue("has a public key that is not valid base64")
        }
        let bytes = [UInt8](der)
        guard bytes.count == Self.subjectPublicKeyInfoPrefix.count + 32,
              Array(bytes.prefix(Self.subjectPublicKeyInfoPrefix.count)) == Self.subjectPublicKeyInfoPrefix else {
            throw InvalidValue("is not an Ed25519 public key (\(bytes.count) bytes of DER)")
        }
        try self.init(rawBytes: Array(bytes.suffix(32)), name: name)
    }

    /// The key as a PEM file's text (what `openssl pkey -pubout` writes).
    public var pem: String {
        let base64 = Data(Self.subjectPublicKeyInfoPrefix + rawBytes).base64EncodedString()
        return Self.beginLine + "\n" + base64 + "\n" + Self.endLine + "\n"
    }

    public var description: String { name }
}
