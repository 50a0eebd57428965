// The maker's public keys for lists of sessions, one PEM file each (`*.pub`) in a folder of the read-only
// image (/usr/share/stillroom/content-keys; the simulator trusts the checkout's development key). A folder
// holds several during a rotation: a list signed by any of them is taken (docs/security.md).

import StillroomCore
import SystemCalls

enum ContentKeyFolder {
    /// The largest key file read: a PEM Ed25519 key is 113 bytes.
    static let fileByteLimit = 4096

    /// Every readable key in `folder`, each problem logged; no keys means every list is refused.
    static func read(_ folder: String, log: Logger) -> ContentKeySet {
        let names: [String]
        do {
            names = try Files.listDirectory(folder).filter { $0.hasSuffix(".pub") }.sorted()
        } catch {
            log.warning("downloads: no content keys: \(folder): \(error); lists of sessions cannot be checked, so none is used")
            return ContentKeySet(keys: [], source: folder)
        }
        var keys: [ContentKey] = []
        for name in names {
            let path = folder + "/" + name
            do {
                let bytes = try Files.readAll(path, limit: fileByteLimit)
                keys.append(try ContentKey(pem: String(decoding: bytes, as: UTF8.self), name: name))
            } catch {
                log.warning("downloads: content key \(path) \(error); not used")
            }
        }
        if keys.isEmpty { log.warning("downloads: no content key in \(folder) (*.pub); lists of sessions cannot be checked, so none is used") }
        return ContentKeySet(keys: keys, source: folder)
    }
}
