import CLinuxShims
import Glibc
import SystemCalls

/// A thin owner of one epoll instance. The loop packs a registration generation into `data`.
final class Epoll {
    private let descriptor: FileDescriptor
    var fd: Int32 { descriptor.rawValue }
    private var buffer: [epoll_event]

    init(capacity: Int = 64) throws(SystemError) {
        descriptor = FileDescriptor(adopting: try systemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
        buffer = Array(repeating: epoll_event(), count: capacity)
    }

    func add(_ target: Int32, events: IOEvents, data: UInt64) throws(SystemError) {
        try control(EPOLL_CTL_ADD, target, events, data, "epoll_ctl(ADD, fd \(target))")
    }

    func modify(_ target: Int32, events: IOEvents, data: UInt64) throws(SystemError) {
        try control(EPOLL_CTL_MOD, target, events, data, "epoll_ctl(MOD, fd \(target))")
    }

    /// Removes `target`; a descriptor already closed is not an error (the kernel dropped it then).
    func remove(_ target: Int32) {
        var event = epoll_event()
        if epoll_ctl(fd, EPOLL_CTL_DEL, target, &event) != 0 {
            let code = errno
            precondition(code == EBADF || code == ENOENT, "epoll_ctl(DEL) failed: errno \(code)")
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) and returns the ready (events, data) pairs.
    func wait(timeoutMilliseconds: Int32) throws(SystemError) -> [(IOEvents, UInt64)] {
        let count = buffer.withUnsafeMutableBufferPointer { events -> Int32 in
            // Unwrapped: newer glibc headers (2.41+) mark the buffer nonnull; the buffer is never empty.
            guard let base = events.baseAddress else { return 0 }
            // EINTR is not retried here: it returns as "nothing ready", so the loop reads its clocks and
            // works out the timeout again (retrying with the old timeout would wait too long).
            let n = epoll_wait(fd, base, Int32(events.count), timeoutMilliseconds)
            return n < 0 && errno == EINTR ? 0 : n
        }
        guard count >= 0 else { throw SystemError("epoll_wait") }
        return (0..<Int(count)).map { (IOEvents(rawValue: buffer[$0].events), buffer[$0].data.u64) }
    }

    private func control(_ op: Int32, _ target: Int32, _ events: IOEvents, _ data: UInt64,
                         _ operation: String) throws(SystemError) {
        var event = epoll_event()
        event.events = events.rawValue
        event.data.u64 = data
        guard epoll_ctl(fd, op, target, &event) == 0 else { throw SystemError(operation) }
    }
}
