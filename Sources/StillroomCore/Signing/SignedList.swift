// The rules a list of sessions (a remote manifest) must pass before a byte of it is parsed as a list: the
// maker signed it (Ed25519, a detached signature beside it: `manifest.json.sig`, the 64 bytes
// `openssl pkeyutl -sign -rawin` writes), and its version does not go back. A host that is taken over, or
// a network in between, can then only withhold lists, never choose what the box downloads or decodes:
// each recording's size and SHA-256 come from the signed list (docs/security.md).

/// The signature's rules and the version check, without I/O: the downloader fetches, libcrypto verifies.
public enum SignedList {
    /// An Ed25519 signature: R and S, 32 bytes each (RFC 8032).
    public static let signatureByteCount = 64

    /// Where a list's signature is fetched from: the list's own address with `.sig` added to its last
    /// path segment (`…/manifest.json` → `…/manifest.json.sig`; a query is not carried over).
    public static func signatureURL(of list: RemoteURL) -> RemoteURL? {
        let name = list.path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        guard !name.isEmpty else { return nil }
        return try? list.resolving(name + ".sig")
    }

    /// The version a signed list declares: its top-level `"version"`, a whole number from 1 up. The
    /// publisher raises it with every list it signs, so an older signed list sent again is recognised.
    public static func version(of bytes: [UInt8]) -> Result<Int, InvalidValue> {
        guard case .object(let fields) = try? JSONValue.parse(bytes) else {
            return .failure(InvalidValue("it is not a JSON object"))
        }
        guard let value = fields["version"] else {
            return .failure(InvalidValue("it has no \"version\" (a signed list must say which it is)"))
        }
        guard let version = value.integerValue, version >= 1 else {
            return .failure(InvalidValue("its \"version\" is \(value.briefDescription), not a whole number from 1"))
        }
        return .success(version)
    }

    /// Why a signed list of `version` may not replace the one taken before (`kept`), or nil when it may:
    /// an older version is a replay, and the same version with other contents is not what the publisher
    /// signed last (both are refused; the kept list stays in use).
    public static func replayRefusal(version: Int, bytes: [UInt8], kept: (version: Int, bytes: [UInt8])?) -> InvalidValue? {
        guard let kept else { return nil }
        if version < kept.version {
            return InvalidValue("its version \(version) is older than version \(kept.version), already taken (an old list sent again)")
        }
        if version == kept.version && bytes != kept.bytes {
            return InvalidValue("it is version \(version), already taken with other contents (the publisher must raise the version)")
        }
        return nil
    }
}
