import Glibc
import SystemCalls

/// Calls back when entries of one folder are created, replaced or removed (inotify in the loop).
///
/// Used where a file is swapped rather than written in place: `timedatectl set-timezone` replaces the
/// /etc/localtime symlink; a device node appears in /dev/input.
public final class DirectoryWatcher {
    public let path: String
    private let descriptor: FileDescriptor
    private var fd: Int32 { descriptor.rawValue }
    private var watch: IOWatch?

    /// Which changes to an entry are reported.
    public struct Changes: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let created = Changes(rawValue: UInt32(IN_CREATE | IN_MOVED_TO))
        public static let written = Changes(rawValue: UInt32(IN_CLOSE_WRITE))
        public static let deleted = Changes(rawValue: UInt32(IN_DELETE))
        /// Owner, mode and times (udev giving a new device node its group).
        public static let attributes = Changes(rawValue: UInt32(IN_ATTRIB))
        public static let all: Changes = [.created, .written, .deleted, .attributes]
    }

    /// `onChange` receives the names that changed in one wake-up. A watcher of device nodes leaves out
    /// `.written`: opening a node read-write and closing it is such a change, so trying the device on each
    /// change would wake itself for ever.
    public init(loop: EventLoop, path: String, changes: Changes = .all,
                onChange: @escaping ([String]) -> Void) throws(SystemError) {
        self.path = path
        descriptor = FileDescriptor(adopting: try systemCall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
        let mask = changes.rawValue | UInt32(IN_DONT_FOLLOW)
        try systemCall("inotify_add_watch(\(path))") { inotify_add_watch(descriptor.rawValue, path, mask) }
        watch = try loop.watch(fd, for: .readable) { [unowned self] _ in onChange(readNames()) }
    }

    deinit {
        watch?.cancel() // before the descriptor closes with this object
    }

    private func readNames() -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let length = buffer.withUnsafeBytes { raw -> Int in
                    Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) // inotify_event.len
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)]
                names.append(String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self))
                offset += header + length
            }
        }
        return names
    }
}
