/// Decodes a rotary encoder's two lines (A, B) into detents, rejecting bounce and impossible transitions.
///
/// Each valid transition of the Gray-code cycle moves a quarter step one way or the other; an impossible
/// one (both lines changed at once: an edge was missed) is rejected and the partial step forgotten. A
/// detent is emitted when the lines come back to a resting state having moved far enough in one direction,
/// so a bounce (forth and back) or noise on one line while the other stays still never turns the knob.
/// Intervals between detents give a velocity for acceleration.
///
/// Encoders that rest at every state (one transition a detent) have no resting state to come back to, so
/// there a transition counts only when it is on the other line than the last one: a real turn alternates
/// A, B, A, B, while bounce or noise toggles one line back and forth. Noise on one line then moves the knob
/// at most one detent, and a reversal loses its first step — the price of never jittering.
public struct QuadratureDecoder: Equatable, Sendable {
    /// Transitions per detent: 4 (one full cycle, most EC11 parts), 2 (rests at 00 and 11) or 1.
    public let transitionsPerDetent: Int
    /// Flips the direction (for encoders wired or mounted the other way round).
    public let reversed: Bool

    /// One detent of the knob.
    public struct Detent: Equatable, Sendable {
        /// +1 clockwise, -1 counter-clockwise.
        public var direction: Int
        /// When the detent completed (the kernel's timestamp of the edge that completed it).
        public var at: MonotonicInstant
        /// The time since the previous detent in the same direction (nil: the first, or a reversal).
        public var interval: Duration?

        public init(direction: Int, at: MonotonicInstant, interval: Duration? = nil) {
            self.direction = direction
            self.at = at
            self.interval = interval
        }
    }

    private var state: UInt8
    private var restState: UInt8
    private var quarterSteps = 0
    /// The line that changed last (ratio 1 only): 0b10 for A, 0b01 for B.
    private var lastChangedLine: UInt8 = 0
    private var timeline = DetentTimeline()
    /// Rejected transitions so far (a measure of wiring noise, for the log).
    public private(set) var rejected = 0

    /// `a` and `b` are the lines' levels at start (after active-level handling); that is a resting state.
    public init(transitionsPerDetent: Int = 4, reversed: Bool = false, a: Bool, b: Bool) {
        precondition([1, 2, 4].contains(transitionsPerDetent), "transitions per detent must be 1, 2 or 4")
        self.transitionsPerDetent = transitionsPerDetent
        self.reversed = reversed
        state = Self.code(a, b)
        restState = state
    }

    /// The lines now read `a`, `b` at `time`. Returns a detent when one completed.
    public mutating func update(a: Bool, b: Bool, at time: MonotonicInstant) -> Detent? {
        let next = Self.code(a, b)
        guard next != state else { return nil }
        let step = Self.step(from: state, to: next)
        let changedLine = state ^ next
        state = next
        guard let step else {
            rejected += 1
            quarterSteps = 0
            lastChangedLine = 0
            return nil
        }
        if transitionsPerDetent == 1 {
            let alternates = changedLine != lastChangedLine
            lastChangedLine = changedLine
            return alternates ? detent(step, at: time) : nil
        }
        quarterSteps += step
        guard isResting(next) else { return nil }
        // Back at rest: a detent if we travelled a whole one in one direction; back and forth is nothing.
        let travelled = quarterSteps
        quarterSteps = 0
        guard abs(travelled) >= transitionsPerDetent else { return nil }
        return detent(travelled > 0 ? 1 : -1, at: time)
    }

    private func isResting(_ code: UInt8) -> Bool {
        switch transitionsPerDetent {
        case 2: return code == restState || code == restState ^ 0b11
        default: return code == restState
        }
    }

    private mutating func detent(_ raw: Int, at time: MonotonicInstant) -> Detent {
        timeline.detent(direction: reversed ? -raw : raw, at: time)
    }

    private static func code(_ a: Bool, _ b: Bool) -> UInt8 { (a ? 0b10 : 0) | (b ? 0b01 : 0) }

    /// The Gray-code cycle 00 → 01 → 11 → 10 → 00 is +1 per step; the reverse is -1; anything else
    /// (both lines changed) is impossible.
    private static func step(from: UInt8, to: UInt8) -> Int? {
        let order: [UInt8] = [0b00, 0b01, 0b11, 0b10]
        guard let i = order.firstIndex(of: from), let j = order.firstIndex(of: to) else { return nil }
        switch (j - i + 4) % 4 {
        case 1: return 1
        case 3: return -1
        default: return nil
        }
    }
}

/// Stamps detents with the interval since the previous one in the same direction. The quadrature decoder
/// uses it, and so do backends whose detents arrive already decoded (the kernel's rotary-encoder driver,
/// the terminal's arrow keys).
public struct DetentTimeline: Equatable, Sendable {
    private var last: QuadratureDecoder.Detent?

    public init() {}

    /// A detent in `direction` (+1 or -1) at `time`.
    public mutating func detent(direction: Int, at time: MonotonicInstant) -> QuadratureDecoder.Detent {
        var interval: Duration?
        if let last, last.direction == direction, time >= last.at { interval = time - last.at }
        let made = QuadratureDecoder.Detent(direction: direction, at: time, interval: interval)
        last = made
        return made
    }
}

/// Knob acceleration: quick turns move further. The seek step per detent is multiplied by this.
public enum KnobAcceleration {
    /// ×4 under 40 ms since the last detent, ×2 under 100 ms, else ×1 (also for the first detent of a turn).
    public static func multiplier(for interval: Duration?) -> Int {
        guard let interval else { return 1 }
        if interval < .milliseconds(40) { return 4 }
        if interval < .milliseconds(100) { return 2 }
        return 1
    }
}
