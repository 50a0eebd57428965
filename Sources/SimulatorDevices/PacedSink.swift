import Devices
import EventLoop
import StillroomCore

/// An audio sink with no device behind it that plays at the sample rate (times `speed`), driven by a
/// loop timer: the simulator's speaker and the scenario tests' ears.
///
/// It behaves like a real device where it matters: a bounded buffer that fills and then takes frames
/// only as fast as they are "played", a delay, rewind of unheard frames, draining. With `keepsAudio` it
/// remembers every frame that was heard (rewound frames are forgotten), so tests can measure the sound.
public final class PacedSink: AudioSink {
    public weak var delegate: AudioSinkDelegate?
    public private(set) var format: AudioFormat?
    public let name = "paced"
    /// Frames of buffer (like a device's ring buffer) and the wake-up period.
    public let bufferFrames: Int
    public let periodFrames: Int
    /// 1 = real time; larger plays faster (time-warped tests).
    public let speed: Double
    /// Interleaved samples heard since `open`, when `keepsAudio` is on.
    public private(set) var heardAudio: [Int16] = []
    public let keepsAudio: Bool
    /// When set, the next open fails with this error (a missing device).
    public var failNextOpen: AudioSinkError?

    private let loop: EventLoop
    private var timer: LoopTimer?
    private var written: Int64 = 0
    private var played: Int64 = 0
    private var clock: MonotonicInstant?
    private var active = false
    private var draining = false
    /// Written but not yet heard samples, kept only with `keepsAudio`.
    private var queuedAudio: [Int16] = []

    public init(loop: EventLoop, speed: Double = 1, bufferFrames: Int = 17_640, periodFrames: Int = 4_410,
                keepsAudio: Bool = false) {
        self.loop = loop
        self.speed = speed
        self.bufferFrames = bufferFrames
        self.periodFrames = periodFrames
        self.keepsAudio = keepsAudio
    }

    /// While set, the device is not there: every open fails (`simulateLoss` took it away while open).
    public var absent = false

    public func open(format: AudioFormat) throws(AudioSinkError) {
        if let failure = failNextOpen {
            failNextOpen = nil
            throw failure
        }
        if absent { throw AudioSinkError(.unavailable, "\(name): no such device") }
        close()
        self.format = format
        timer = loop.makeTimer { [unowned self] in tick() }
        heardAudio = []
        resetCounters()
    }

    public func close() {
        timer?.cancel()
        timer = nil
        format = nil
        active = false
        draining = false
    }

    /// Simulates the device vanishing (a USB DAC pulled out).
    public func simulateLoss(_ detail: String = "device removed") {
        guard format != nil else { return }
        close()
        delegate?.audioSink(self, failed: AudioSinkError(.lost, detail))
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(AudioSinkError) -> Int {
        guard let format else { return 0 }
        advance()
        let room = max(0, played + Int64(bufferFrames) - written)
        let frames = Int(min(Int64(samples.count / format.channels), room))
        guard frames > 0 else { return 0 }
        if keepsAudio { queuedAudio.append(contentsOf: samples[..<(frames * format.channels)]) }
        written += Int64(frames)
        if clock == nil { clock = loop.now }
        draining = false
        if !active {
            active = true
            timer?.schedule(after: period)
        }
        return frames
    }

    public var playedFrames: Int64 {
        advance()
        return played
    }

    public var queuedFrames: Int64 { written - playedFrames }

    public func rewind(_ frames: Int64) -> Int64 {
        advance()
        let taken = max(0, min(frames, written - played))
        written -= taken
        if keepsAudio, let format { queuedAudio.removeLast(Int(taken) * format.channels) }
        return taken
    }

    public func discard() {
        advance()
        resetCounters()
    }

    public func finish() {
        guard format != nil else { return }
        draining = true
        active = false
        scheduleDrainCheck()
    }

    /// Like most simple devices (and the Pi's analog output), no hardware pause.
    public func hardwarePause(_ on: Bool) -> Bool { false }

    private func resetCounters() {
        written = 0
        played = 0
        clock = nil
        queuedAudio = []
        active = false
        draining = false
        timer?.cancel()
    }

    private var period: Duration {
        guard let format else { return .milliseconds(100) }
        return .nanoseconds(Int64(Double(periodFrames) * 1e9 / (Double(format.sampleRate) * speed)))
    }

    private func tick() {
        advance()
        if draining {
            if written - played > 0 {
                scheduleDrainCheck()
            } else {
                draining = false
                delegate?.audioSinkDrained(self)
            }
            return
        }
        guard active else { return }
        timer?.schedule(after: period)
        delegate?.audioSinkWantsFrames(self)
    }

    private func scheduleDrainCheck() {
        guard let format else { return }
        let left = Double(max(0, written - played))
        timer?.schedule(after: .nanoseconds(Int64(left * 1e9 / (Double(format.sampleRate) * speed))) + .milliseconds(1))
    }

    /// Plays frames for the time passed since the last look, up to what is queued.
    private func advance() {
        guard let format, let since = clock else { return }
        let elapsed = Double((loop.now - since).totalNanoseconds) / 1e9
        let frames = Int64(elapsed * Double(format.sampleRate) * speed)
        guard frames > 0 else { return }
        let heard = min(frames, written - played)
        if keepsAudio && heard > 0 {
            let count = Int(heard) * format.channels
            heardAudio.append(contentsOf: queuedAudio.prefix(count))
            queuedAudio.removeFirst(count)
        }
        played += heard
        clock = since + .nanoseconds(Int64(Double(frames) * 1e9 / (Double(format.sampleRate) * speed)))
    }
}
