import CLinuxShims
import Glibc
import SystemCalls

/// One timerfd, armed with absolute deadlines.
final class TimerFD {
    enum Expiry { case expired, notYet, clockWasSet }

    private let descriptor: FileDescriptor
    var fd: Int32 { descriptor.rawValue }
    private let clock: clockid_t

    init(clock: clockid_t) throws(SystemError) {
        descriptor = FileDescriptor(adopting: try systemCall("timerfd_create") { timerfd_create(clock, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) })
        self.clock = clock
    }

    /// Arms the timer for the absolute time `nanoseconds` on its clock (a past time fires at once).
    /// `cancelOnClockSet` makes a realtime timer report `.clockWasSet` when someone sets the clock.
    func arm(atNanoseconds nanoseconds: UInt64, cancelOnClockSet: Bool = false) throws(SystemError) {
        // An all-zero it_value would disarm; the earliest absolute time we ask for is 1 ns.
        var spec = itimerspec(it_interval: timespec(), it_value: timespec(nanoseconds: max(nanoseconds, 1)))
        var flags = TFD_TIMER_ABSTIME
        if cancelOnClockSet { flags |= Int(stillroom_tfd_timer_cancel_on_set()) }
        guard timerfd_settime(fd, Int32(flags), &spec, nil) == 0 else { throw SystemError("timerfd_settime") }
    }

    func disarm() {
        var spec = itimerspec()
        _ = timerfd_settime(fd, 0, &spec, nil) // cannot fail for a valid fd and zero value
    }

    /// Reads the expiration count, which also clears readiness.
    func consume() -> Expiry {
        var expirations: UInt64 = 0
        let count = read(fd, &expirations, MemoryLayout<UInt64>.size)
        if count == MemoryLayout<UInt64>.size { return .expired }
        switch errno {
        case ECANCELED: return .clockWasSet
        default: return .notYet // EAGAIN: woken spuriously, or re-armed since
        }
    }
}

/// An eventfd: the one way to wake the loop from elsewhere (another thread, a signal-safe context).
final class EventFD {
    private let descriptor: FileDescriptor
    var fd: Int32 { descriptor.rawValue }

    init() throws(SystemError) {
        descriptor = FileDescriptor(adopting: try systemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) })
    }

    func signal() {
        var one: UInt64 = 1
        _ = write(fd, &one, MemoryLayout<UInt64>.size) // EAGAIN only when the counter is saturated: already woken
    }

    func consume() {
        var value: UInt64 = 0
        _ = read(fd, &value, MemoryLayout<UInt64>.size) // EAGAIN: nothing pending
    }
}

/// A signalfd for a set of signals, which are blocked for normal delivery so only the loop sees them.
final class SignalFD {
    private let descriptor: FileDescriptor
    var fd: Int32 { descriptor.rawValue }

    init(signals: [Int32]) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        guard pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 else { throw SystemError("pthread_sigmask") }
        descriptor = FileDescriptor(adopting: try systemCall("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) })
    }

    /// The signals that arrived since the last call.
    func consume() -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            received.append(Int32(info.ssi_signo))
        }
        return received
    }
}
