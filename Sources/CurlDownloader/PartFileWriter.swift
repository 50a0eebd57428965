// The `.part` file of a download: bytes are appended as they arrive and fed to SHA-256 on the way, so
// the digest is ready when the last byte lands. After a restart the bytes already on disk are read back
// into the digest (in chunks, between loop iterations) before the transfer continues from there.

import CryptoHash
import Glibc
import StillroomCore
import SystemCalls

/// Appends to one `.part` file and keeps its running SHA-256. Loop thread only.
final class PartFileWriter {
    let path: String
    private let file: FileDescriptor
    /// Bytes in the file.
    private(set) var size: Int64
    private var hasher = SHA256Hasher()
    /// Tests: the writer behaves as if the card filled up once the file reached this many bytes
    /// (a short write, then ENOSPC), exactly as a real full card does.
    let capacityLimit: Int64?

    /// Opens (or creates) the file, keeping what is already in it.
    init(path: String, capacityLimit: Int64?) throws(SystemError) {
        let file = try FileDescriptor.open(path, O_RDWR | O_CREAT, mode: 0o640)
        let info = try file.status(path: path) // (the descriptor closes with `file` if this throws)
        self.path = path
        self.file = file
        self.size = Int64(info.st_size)
        self.capacityLimit = capacityLimit
    }

    /// Bytes of the file already in the digest.
    var hashedBytes: Int64 { hasher.byteCount }

    /// Whether the digest covers the whole file (a resumed file must be read back first).
    var isDigestCurrent: Bool { hasher.byteCount == size }

    /// Cuts the file to `length` bytes. The digest restarts when the cut reaches into hashed bytes.
    func truncate(to length: Int64) throws(SystemError) {
        try file.truncate(to: length, path: path)
        size = length
        if hasher.byteCount > length { hasher = SHA256Hasher() }
    }

    /// Reads up to `chunk` bytes the digest has not seen yet. Returns true once the digest is current.
    func hashExistingBytes(chunk: Int) throws(SystemError) -> Bool {
        guard !isDigestCurrent else { return true }
        let wanted = Int(min(Int64(chunk), size - hasher.byteCount))
        let bytes = try file.read(upTo: wanted, at: hasher.byteCount, path: path)
        guard !bytes.isEmpty else { throw SystemError("pread (file shrank)", path: path, errno: EIO) }
        hasher.update(bytes)
        return isDigestCurrent
    }

    /// Appends `bytes` and adds them to the digest. On failure the bytes that did reach the file are
    /// kept and hashed, so the file and the digest still agree.
    func append(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        precondition(isDigestCurrent, "append before the digest caught up with the file")
        var offset = 0
        while offset < bytes.count {
            var allowed = bytes.count - offset
            if let capacityLimit {
                allowed = Int(max(0, min(Int64(allowed), capacityLimit - size)))
                if allowed == 0 { throw SystemError("write", path: path, errno: ENOSPC) }
            }
            let written = try file.write(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + allowed]), at: size, path: path)
            hasher.update(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + written]))
            size += Int64(written)
            offset += written
        }
    }

    /// fsyncs the file and returns its digest.
    func finish() throws(SystemError) -> SHA256Digest {
        try file.sync(path: path)
        return hasher.finalize()
    }

    /// Closes the file now (after fsync, or for a file being abandoned, there is nothing left to report).
    func close() { file.close() }
}
