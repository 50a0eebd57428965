// An owning file descriptor: closed exactly once, by `close()` or when the last reference goes.
//
// A class, not a `~Copyable` struct: the swiftlang compiler Debian ships, used for the arm64 cross-build,
// crashed in release mode on a non-copyable struct (in NetworkProbe) before, and an image that cannot be
// built is worse than a reference count. Ownership is still single: nothing copies `rawValue` out to close
// it elsewhere.

import Glibc

public final class FileDescriptor {
    /// The descriptor number; -1 once closed.
    public private(set) var rawValue: Int32

    /// Takes ownership of `rawValue` (which must be open and owned by no one else).
    public init(adopting rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit { close() }

    public var isOpen: Bool { rawValue >= 0 }

    /// Opens `path` (O_CLOEXEC is always added), retrying on EINTR (a FIFO or a slow device can be
    /// interrupted while opening).
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(SystemError) -> FileDescriptor {
        let fd = try systemCall("open", path: path) { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(adopting: fd)
    }

    /// Closes the descriptor once; later calls do nothing. Never retried (see Interrupts.swift), and its
    /// error is not reported: the descriptor is gone whatever close says, and a write that must reach the
    /// card is made sure of with `sync()` first.
    public func close() {
        guard rawValue >= 0 else { return }
        _ = Glibc.close(rawValue)
        rawValue = -1
    }

    /// Reads up to `count` bytes at the current offset (fewer at the end of the file; none at its end).
    public func read(upTo count: Int, path: String? = nil) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try systemCall("read", path: path) { bytes.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, count) } }
        bytes.removeLast(count - got)
        return bytes
    }

    /// Reads up to `count` bytes at `offset` (pread: the file offset is not moved); fewer near the end.
    public func read(upTo count: Int, at offset: Int64, path: String? = nil) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try systemCall("pread", path: path) {
            bytes.withUnsafeMutableBytes { pread(rawValue, $0.baseAddress, count, off_t(offset)) }
        }
        bytes.removeLast(count - got)
        return bytes
    }

    /// Writes what one pwrite takes of `bytes` at `offset`; how many bytes that was (a full card can take
    /// fewer than given before it says ENOSPC).
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64, path: String? = nil) throws(SystemError) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        return try systemCall("write", path: path) { pwrite(rawValue, base, bytes.count, off_t(offset)) }
    }

    /// ftruncate.
    public func truncate(to length: Int64, path: String? = nil) throws(SystemError) {
        try systemCall("ftruncate", path: path) { ftruncate(rawValue, off_t(length)) }
    }

    /// Reads to the end of the file, refusing (EFBIG) more than `limit` bytes.
    public func readAll(limit: Int, path: String? = nil) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let chunk = try read(upTo: 65_536, path: path)
            if chunk.isEmpty { return bytes }
            bytes += chunk
            guard bytes.count <= limit else { throw SystemError("read", path: path, errno: EFBIG) }
        }
    }

    /// Writes all of `bytes`, however many calls the kernel takes.
    public func writeAll(_ bytes: some Collection<UInt8>, path: String? = nil) throws(SystemError) {
        let contiguous = Array(bytes)
        var offset = 0
        while offset < contiguous.count {
            let written = try systemCall("write", path: path) {
                contiguous.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + offset, $0.count - offset) }
            }
            offset += written
        }
    }

    /// fsync: the file's data and metadata are on the card when this returns.
    public func sync(path: String? = nil) throws(SystemError) {
        try systemCall("fsync", path: path) { fsync(rawValue) }
    }

    /// fstat.
    public func status(path: String? = nil) throws(SystemError) -> stat {
        var info = stat()
        try systemCall("fstat", path: path) { fstat(rawValue, &info) }
        return info
    }
}
