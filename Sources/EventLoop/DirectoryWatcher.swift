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

    /// `onChange` receives the names that changed in one wake-up.
    public init(loop: EventLoop, path: String, onChange: @escaping ([String]) -> Void) throws(SystemError) {
        self.path = path
        descriptor = FileDescriptor(adopting: try systemCall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB | IN_DONT_FOLLOW)
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
