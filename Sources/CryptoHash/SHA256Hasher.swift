// SHA-256 from OpenSSL's libcrypto (the EVP digest API), the library libcurl already loads for TLS: one
// well-kept implementation on the box, with its assembly for the CPU, instead of one of our own. The
// downloader feeds it each chunk as it is written, so a finished download is verified without reading the
// file back; a resumed one re-reads only the part already on disk. libcrypto is loaded with the first
// digest, not at exec (CDigest): callers that can report a failure call `loadLibrary()` first.

internal import CCrypto
internal import CDigest
import StillroomCore

/// An incremental SHA-256 computation: `update` with the bytes in order, then `finalize`.
///
/// Owns a libcrypto digest context (EVP_MD_CTX), freed with the hasher. One thread at a time.
public final class SHA256Hasher {
    private let context: OpaquePointer
    /// Everything passed to `update` so far.
    public private(set) var byteCount: Int64 = 0

    /// Loads libcrypto, once per process: nil when SHA-256 can be computed, otherwise why not (the loader's
    /// words). A hasher made without it stops the process with those words, so the downloader asks first.
    public static func loadLibrary() -> String? {
        stillroom_digest_load().map { "libcrypto could not be loaded (\(String(cString: $0)))" }
    }

    public init() {
        context = Self.newContext()
        Self.check(EVP_DigestInit_ex(context, EVP_sha256(), nil), "EVP_DigestInit_ex")
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the message.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        Self.check(EVP_DigestUpdate(context, base, bytes.count), "EVP_DigestUpdate")
        byteCount += Int64(bytes.count)
    }

    /// Adds `bytes` to the message.
    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds the UTF-8 bytes of `text` (for tests and small strings).
    public func update(_ text: String) {
        update(Array(text.utf8))
    }

    /// The digest of everything added so far. The hasher itself is not changed, so more bytes may follow:
    /// EVP_DigestFinal_ex ends the context it is given, so it is given a copy.
    public func finalize() -> SHA256Digest {
        let copy = Self.newContext()
        defer { EVP_MD_CTX_free(copy) }
        Self.check(EVP_MD_CTX_copy_ex(copy, context), "EVP_MD_CTX_copy_ex")
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        Self.check(EVP_DigestFinal_ex(copy, &digest, &length), "EVP_DigestFinal_ex")
        precondition(length == 32, "EVP_DigestFinal_ex: SHA-256 gave \(length) bytes")
        return SHA256Digest(bytes: digest.prefix(32))
    }

    /// The digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> SHA256Digest {
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    private static func newContext() -> OpaquePointer {
        // Only an allocation can fail here; there is nothing useful to do without memory.
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        return context
    }

    /// libcrypto's digest calls return 1 on success. For SHA-256 with valid arguments they fail only when
    /// memory runs out or the library is unusable (say, an OpenSSL configuration that removes SHA-256):
    /// not a state the box can download or verify anything in.
    private static func check(_ result: Int32, _ operation: StaticString) {
        if result != 1 { fatalError("\(operation) failed: libcrypto cannot compute SHA-256") }
    }
}
