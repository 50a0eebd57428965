// Ed25519 through libcrypto's EVP interface (one-shot EVP_DigestVerify / EVP_DigestSign, the only form
// Ed25519 has there), loaded lazily like the digests (CDigest). The box only verifies; signing is here for
// the tests and the development tools that publish lists of sessions.

internal import CCrypto
internal import CDigest
import StillroomCore

/// The maker's keys, ready to check signatures with.
public final class ContentSignatureChecker {
    private let keys: [(key: ContentKey, handle: OpaquePointer)]

    /// Fails with the loader's words when libcrypto cannot be loaded, or when it refuses a key.
    public init(keys: [ContentKey]) throws(InvalidValue) {
        if let reason = SHA256Hasher.loadLibrary() { throw InvalidValue(reason) }
        var handles: [(ContentKey, OpaquePointer)] = []
        for key in keys {
            guard let handle = key.rawBytes.withUnsafeBufferPointer({
                EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.baseAddress, $0.count)
            }) else {
                handles.forEach { EVP_PKEY_free($0.1) }
                throw InvalidValue("libcrypto refuses the key \(key.name)")
            }
            handles.append((key, handle))
        }
        self.keys = handles
    }

    deinit { keys.forEach { EVP_PKEY_free($0.handle) } }

    public var isEmpty: Bool { keys.isEmpty }

    /// The key that signed `message` with `signature`, or nil when none of them did.
    public func signer(of message: [UInt8], signature: [UInt8]) -> ContentKey? {
        guard signature.count == SignedList.signatureByteCount else { return nil }
        for (key, handle) in keys where Self.verify(message, signature, handle) { return key }
        return nil
    }

    private static func verify(_ message: [UInt8], _ signature: [UInt8], _ key: OpaquePointer) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
        return message.withUnsafeBufferPointer { text in
            signature.withUnsafeBufferPointer { signature in
                EVP_DigestVerify(context, signature.baseAddress, signature.count, text.baseAddress, text.count) == 1
            }
        }
    }
}

/// An Ed25519 private key, for signing lists of sessions in tests and development tools.
///
/// Sendable: the key is never changed after it is made, and each signature uses its own EVP_MD_CTX (OpenSSL 3
/// allows one EVP_PKEY in contexts on several threads).
public final class ContentSigningKey: @unchecked Sendable {
    private let handle: OpaquePointer
    public let publicKey: ContentKey

    /// The key whose 32-byte seed (RFC 8032's private key) is `seed`.
    public init(seed: [UInt8], name: String = "test key") throws(InvalidValue) {
        if let reason = SHA256Hasher.loadLibrary() { throw InvalidValue(reason) }
        guard seed.count == 32 else { throw InvalidValue("an Ed25519 seed is 32 bytes, not \(seed.count)") }
        guard let handle = seed.withUnsafeBufferPointer({ EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, $0.baseAddress, 32) }) else {
            throw InvalidValue("libcrypto refuses the seed")
        }
        var raw = [UInt8](repeating: 0, count: 32)
        var length = 32
        guard EVP_PKEY_get_raw_public_key(handle, &raw, &length) == 1, length == 32 else {
            EVP_PKEY_free(handle)
            throw InvalidValue("libcrypto gives no public key for the seed")
        }
        self.handle = handle
        self.publicKey = try ContentKey(rawBytes: raw, name: name)
    }

    deinit { EVP_PKEY_free(handle) }

    /// The 64-byte signature of `message`.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var signature = [UInt8](repeating: 0, count: SignedList.signatureByteCount)
        var length = signature.count
        let signed = EVP_DigestSignInit(context, nil, nil, nil, handle) == 1 && message.withUnsafeBufferPointer {
            EVP_DigestSign(context, &signature, &length, $0.baseAddress, $0.count) == 1
        }
        precondition(signed && length == SignedList.signatureByteCount, "EVP_DigestSign failed for an Ed25519 key")
        return signature
    }
}
