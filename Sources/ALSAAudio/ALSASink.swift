internal import CALSA
import Devices
import EventLoop
import Glibc
import SystemCalls
import StillroomCore

/// Plays through an ALSA PCM from the event loop.
///
/// The PCM's poll descriptors sit in the loop while there is something to play; each wake-up (a period
/// free) asks the delegate for frames. A PCM whose descriptor epoll refuses (the `null` plugin polls
/// /dev/null: EPERM) is driven by a timer instead, paced at the sample rate so it behaves like a device.
/// Underruns and suspends are recovered one non-blocking step at a time; a lost device closes the sink
/// and tells the delegate.
public final class ALSASink: AudioSink {
    public weak var delegate: AudioSinkDelegate?
    public let deviceName: String
    public var name: String { "alsa:\(deviceName)" }
    public var format: AudioFormat? { device?.format }

    private let loop: EventLoop
    private var device: PCMDevice?
    private var descriptors: [pollfd] = []
    private var watches: [IOWatch] = []
    private var timer: LoopTimer?
    /// True when epoll refused the PCM's descriptors and a timer paces the writes.
    public private(set) var pacedByTimer = false
    /// Frames written since open or discard.
    private var written: Int64 = 0
    /// Watching for room: only while playing, so an idle or draining sink never wakes the loop.
    private var active = false
    private var draining = false
    /// Timer mode's model of the device: frames heard so far, advanced with the loop's clock.
    private var modelPlayed: Int64 = 0
    private var modelClock: MonotonicInstant?

    public init(device: String, loop: EventLoop) {
        self.deviceName = device
        self.loop = loop
    }

    deinit { close() }

    /// Buffer and period of the open device, in frames (for logs, tests and the benchmark).
    public var bufferFrames: Int { device?.bufferFrames ?? 0 }
    public var periodFrames: Int { device?.periodFrames ?? 0 }
    public var canPause: Bool { device?.canPause ?? false }

    public func open(format: AudioFormat) throws(AudioSinkError) {
        close()
        let opened = try PCMDevice(name: deviceName, format: format)
        device = opened
        descriptors = opened.pollDescriptors()
        pacedByTimer = false
        do {
            for descriptor in descriptors {
                let watch = try loop.watch(descriptor.fd, for: []) { [unowned self] events in
                    ready(fd: descriptor.fd, events: events)
                }
                watches.append(watch)
            }
        } catch where error.errno == EPERM {
            for watch in watches { watch.cancel() }
            watches = []
            pacedByTimer = true
        } catch {
            close()
            throw AudioSinkError(.unavailable, "\(deviceName): cannot watch the PCM: \(error)")
        }
        timer = loop.makeTimer { [unowned self] in timerFired() }
        written = 0
        modelPlayed = 0
        modelClock = nil
        active = false
        draining = false
    }

    public func close() {
        for watch in watches { watch.cancel() }
        watches = []
        timer?.cancel()
        timer = nil
        device = nil
        active = false
        draining = false
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(AudioSinkError) -> Int {
        guard let device else { return 0 }
        let channels = device.format.channels
        var offered = samples.count / channels
        if pacedByTimer {
            advanceModel()
            offered = min(offered, Int(max(0, modelPlayed + Int64(timerLeadFrames) - written)))
        }
        guard offered > 0 else { return 0 }
        draining = false
        let slice = UnsafeBufferPointer(rebasing: samples[..<(offered * channels)])
        var accepted = 0
        for _ in 0..<2 { // at most one recovery and a retry
            switch device.write(slice) {
            case .accepted(let frames):
                accepted = frames
            case .full:
                accepted = 0
            case .underrun, .suspended:
                if try device.recover() { continue }
                timer?.schedule(after: .milliseconds(100)) // a suspended device not yet resumable
            case .failed(let error):
                fail(error)
                throw error
            }
            break
        }
        written += Int64(accepted)
        if modelClock == nil && accepted > 0 { modelClock = loop.now }
        setActive(true)
        return accepted
    }

    public var playedFrames: Int64 {
        guard let device else { return 0 }
        if pacedByTimer {
            advanceModel()
            return modelPlayed
        }
        switch device.state {
        case .running, .draining, .paused:
            return written - Int64(device.delay() ?? 0)
        case .xrun:
            return written // ran dry: everything written was heard
        default:
            return written - Int64(min(Int64(device.delay() ?? Int(written)), written))
        }
    }

    public var queuedFrames: Int64 { written - playedFrames }

    public func rewind(_ frames: Int64) -> Int64 {
        guard let device, frames > 0 else { return 0 }
        let taken: Int64
        if pacedByTimer {
            // The modelled device has not played these yet; the PCM (a plugin chain) must give them back too.
            advanceModel()
            let unheard = Int(min(frames, written - modelPlayed))
            taken = Int64(unheard > 0 ? device.rewind(unheard) : 0)
        } else {
            let possible = min(Int(frames), device.rewindable())
            taken = Int64(possible > 0 ? device.rewind(possible) : 0)
        }
        written -= taken
        return taken
    }

    public func discard() {
        guard let device else { return }
        do {
            try device.dropAndPrepare()
        } catch {
            fail(error)
            return
        }
        written = 0
        modelPlayed = 0
        modelClock = nil
        draining = false
        setActive(false)
    }

    public func finish() {
        guard let device else { return }
        draining = true
        setActive(false)
        device.start() // fewer frames than the start threshold would otherwise never play
        scheduleDrainCheck()
    }

    /// Holds the hardware where it can pause (nothing lost, resumes seamlessly); false where it cannot.
    public func hardwarePause(_ on: Bool) -> Bool {
        guard let device, !pacedByTimer else { return false }
        let done = device.pause(on)
        if done { setActive(!on) }
        return done
    }

    // MARK: Loop events

    private func setActive(_ on: Bool) {
        if pacedByTimer {
            active = on
            if on, !(timer?.isScheduled ?? true) {
                timer?.schedule(after: periodDuration)
            } else if !on, !draining {
                timer?.cancel()
            }
            return
        }
        guard active != on else { return }
        active = on
        for (index, watch) in watches.enumerated() {
            let wanted = on ? IOEvents(rawValue: UInt32(UInt16(bitPattern: descriptors[index].events))) : []
            do {
                try watch.update(events: wanted)
            } catch {
                fail(AudioSinkError(.failed, "\(deviceName): epoll: \(error)"))
                return
            }
        }
    }

    private func ready(fd: Int32, events: IOEvents) {
        guard let device else { return }
        var results = descriptors
        for index in results.indices {
            results[index].revents = results[index].fd == fd ? Int16(truncatingIfNeeded: events.rawValue) : 0
        }
        let revents = device.demangle(&results)
        if revents & Int16(POLLERR) != 0 {
            do {
                if try !device.recover() { timer?.schedule(after: .milliseconds(100)) }
            } catch {
                fail(error)
                return
            }
        }
        if revents & Int16(POLLOUT) != 0, active {
            delegate?.audioSinkWantsFrames(self)
        }
    }

    private func timerFired() {
        guard let device else { return }
        if draining {
            checkDrained()
            return
        }
        if !pacedByTimer {
            // A retry after a suspend that was not yet resumable.
            do {
                if try !device.recover() { timer?.schedule(after: .milliseconds(100)) }
            } catch {
                fail(error)
            }
            return
        }
        guard active else { return }
        timer?.schedule(after: periodDuration)
        delegate?.audioSinkWantsFrames(self)
    }

    private func scheduleDrainCheck() {
        guard let device else { return }
        let queued = max(0, queuedFrames)
        let wait = Duration.nanoseconds(queued * 1_000_000_000 / Int64(device.format.sampleRate))
        timer?.schedule(after: wait + .milliseconds(5))
    }

    private func checkDrained() {
        if queuedFrames > 0 {
            scheduleDrainCheck()
            return
        }
        draining = false
        delegate?.audioSinkDrained(self)
    }

    private var periodDuration: Duration {
        guard let device else { return .milliseconds(100) }
        if pacedByTimer { return Self.timerPeriod }
        return .nanoseconds(Int64(device.periodFrames) * 1_000_000_000 / Int64(device.format.sampleRate))
    }

    /// Timer mode: a PCM that is not paced by hardware (null, file) consumes whatever it is given at
    /// once and often cannot give it back (the file plugin has already written it). So keep only a short
    /// lead over the modelled device: pause and seek then act within a few tens of milliseconds.
    static let timerPeriod: Duration = .milliseconds(20)
    private var timerLeadFrames: Int {
        guard let device else { return 0 }
        return min(device.bufferFrames, device.format.sampleRate * 50 / 1000)
    }

    /// Timer mode: the modelled device plays at the sample rate while it has frames queued.
    private func advanceModel() {
        guard let device, let since = modelClock else { return }
        let elapsed = loop.now - since
        let frames = elapsed.totalNanoseconds * Int64(device.format.sampleRate) / 1_000_000_000
        guard frames > 0 else { return }
        modelPlayed = min(written, modelPlayed + frames)
        modelClock = since + .nanoseconds(frames * 1_000_000_000 / Int64(device.format.sampleRate))
    }

    private func fail(_ error: AudioSinkError) {
        close()
        delegate?.audioSink(self, failed: error)
    }
}
