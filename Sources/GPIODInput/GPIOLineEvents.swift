import StillroomCore

/// One edge from a line's event fd: the line's level after the edge (the kernel reads it for
/// both-edge requests, active level applied, so "rising" means "now active") and the kernel's timestamp.
public struct GPIOEdge: Equatable, Sendable {
    public var active: Bool
    public var at: MonotonicInstant

    public init(active: Bool, at: MonotonicInstant) {
        self.active = active
        self.at = at
    }
}

/// Pure helpers for the GPIO backend, kept apart from libgpiod so they can be tested without a chip.
public enum GPIOLineEvents {
    /// The instant for a kernel timestamp. Since Linux 5.7 line events carry CLOCK_MONOTONIC, the loop's
    /// clock; older kernels stamped CLOCK_REALTIME, which is decades away from it. A stamp more than a
    /// minute from `now` is not on our clock, and `now` stands in for it.
    public static func instant(seconds: Int, nanoseconds: Int, now: MonotonicInstant) -> MonotonicInstant {
        guard seconds >= 0, nanoseconds >= 0 else { return now }
        let stamp = MonotonicInstant(nanoseconds: UInt64(seconds) * 1_000_000_000 + UInt64(nanoseconds))
        let distance = stamp > now ? stamp - now : now - stamp
        return distance < .seconds(60) ? stamp : now
    }

    /// The encoder's two lines, edge by edge, as the sequence of (A, B) states they went through.
    ///
    /// v1 gives one event fd per line with no sequence numbers, so both lines are drained on every
    /// wake-up and merged by timestamp (ties: A first, as it usually leads). Then the levels read back from
    /// the lines close the sequence at `readBackAt`: if an edge was lost (the kernel's 16-event FIFO
    /// overflowed in a long spin) or is not queued yet, the decoder still ends where the knob really is,
    /// and an impossible jump is rejected there rather than read as a turn.
    public static func encoderStates(a edgesA: [GPIOEdge], b edgesB: [GPIOEdge], from start: (a: Bool, b: Bool),
                                     readBack: (a: Bool, b: Bool)?, readBackAt: MonotonicInstant)
        -> [(a: Bool, b: Bool, at: MonotonicInstant)] {
        var merged: [(isA: Bool, edge: GPIOEdge)] = edgesA.map { (true, $0) } + edgesB.map { (false, $0) }
        merged = merged.enumerated().sorted { first, second in
            let (x, y) = (first.element, second.element)
            if x.edge.at != y.edge.at { return x.edge.at < y.edge.at }
            if x.isA != y.isA { return x.isA }
            return first.offset < second.offset
        }.map(\.element)
        var a = start.a, b = start.b
        var states: [(a: Bool, b: Bool, at: MonotonicInstant)] = []
        for item in merged {
            if item.isA { a = item.edge.active } else { b = item.edge.active }
            states.append((a, b, item.edge.at))
        }
        if let readBack, readBack.a != a || readBack.b != b {
            let last = states.last?.at ?? readBackAt
            states.append((readBack.a, readBack.b, max(last, readBackAt)))
        }
        return states
    }
}
