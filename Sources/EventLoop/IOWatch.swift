import SystemCalls

/// A registration of one file descriptor in the loop. Cancel it before closing the descriptor.
public final class IOWatch {
    public let fd: Int32
    let generation: UInt32
    private weak var loop: EventLoop?

    init(loop: EventLoop, fd: Int32, generation: UInt32) {
        self.loop = loop
        self.fd = fd
        self.generation = generation
    }

    /// Changes the events waited for (for example: add `.writable` only while there is output queued).
    public func update(events: IOEvents) throws(SystemError) {
        try loop?.update(self, events: events)
    }

    /// Stops watching; events already collected for this watch are dropped.
    public func cancel() { loop?.cancel(self) }

    /// Whether the watch is still registered.
    public var isActive: Bool { loop?.isActive(self) ?? false }
}
