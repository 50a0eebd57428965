import EventLoop
import FoundationEssentials
import StillroomCore

/// The daemon's timers, one loop timer per name, made when first armed: the box names what it wants
/// (`BoxEffect.arm`), this keeps when. Nothing here decides when anything is due.
final class TimerTable<Name: Hashable> {
    private let loop: EventLoop
    private var monotonic: [Name: LoopTimer] = [:]
    private var wallClock: [Name: WallClockTimer] = [:]
    /// Called when a timer fires (set once the owner can be called).
    var fired: (Name) -> Void = { _ in }

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Arms `name` for `deadline`, replacing whatever it was armed for (on either clock).
    func arm(_ name: Name, at deadline: TimerDeadline) {
        switch deadline {
        case .monotonic(let instant):
            wallClock[name]?.cancel()
            timer(name).schedule(at: instant)
        case .wallClock(let seconds):
            monotonic[name]?.cancel()
            wallClockTimer(name).schedule(at: Date(timeIntervalSince1970: Double(seconds)))
        }
    }

    func cancel(_ name: Name) {
        monotonic[name]?.cancel()
        wallClock[name]?.cancel()
    }

    func cancelAll() {
        for timer in monotonic.values { timer.cancel() }
        for timer in wallClock.values { timer.cancel() }
    }

    private func timer(_ name: Name) -> LoopTimer {
        if let made = monotonic[name] { return made }
        let made = loop.makeTimer { [unowned self] in fired(name) }
        monotonic[name] = made
        return made
    }

    private func wallClockTimer(_ name: Name) -> WallClockTimer {
        if let made = wallClock[name] { return made }
        let made = loop.makeWallClockTimer { [unowned self] in fired(name) }
        wallClock[name] = made
        return made
    }
}
