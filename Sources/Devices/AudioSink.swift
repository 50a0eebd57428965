/// The PCM format the playback path uses end to end: interleaved signed 16-bit stereo.
public struct AudioFormat: Equatable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int = 2) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { "\(sampleRate) Hz, \(channels) ch, S16" }
}

/// Why an audio output failed.
public struct AudioSinkError: Error, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The device could not be opened or configured (wrong name, busy, format refused).
        case unavailable
        /// The device went away while in use (USB DAC unplugged): close it and re-open later.
        case lost
        /// Anything else the device reported that recovery could not mend.
        case failed
    }

    public let kind: Kind
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(detail)" }
}

/// Receives what an audio sink has to say. Calls arrive on the loop's thread.
public protocol AudioSinkDelegate: AnyObject {
    /// The sink can take more frames now: call `write` until it accepts fewer than offered.
    func audioSinkWantsFrames(_ sink: AudioSink)
    /// Every queued frame has been played (after `finish()`), or the sink ran dry.
    func audioSinkDrained(_ sink: AudioSink)
    /// The device failed or went away; the sink is closed.
    func audioSink(_ sink: AudioSink, failed error: AudioSinkError)
}

/// An audio output driven by the event loop: non-blocking writes when it says it wants frames.
///
/// Contract (after MPD's output plugins): `open` prepares the device; the first `write` starts it;
/// `playedFrames` counts frames that have actually reached the listener since `open` or `discard`
/// (frames written minus the device's delay) — the number that drives position and practice accounting.
/// `pause`/`resume` hold the device without losing what is queued; `discard` drops what is queued at
/// once. All calls are on the loop's thread.
public protocol AudioSink: AnyObject {
    var delegate: AudioSinkDelegate? { get set }
    /// The open format, or nil when closed.
    var format: AudioFormat? { get }
    /// A short name for logs and status ("alsa:default", "paced", "recording").
    var name: String { get }

    func open(format: AudioFormat) throws(AudioSinkError)
    func close()

    /// Writes up to `samples.count / channels` frames; returns how many frames were accepted.
    func write(_ samples: UnsafeBufferPointer<Int16>) throws(AudioSinkError) -> Int

    /// Frames heard since `open` or the last `discard`.
    var playedFrames: Int64 { get }
    /// Frames written but not yet heard.
    var queuedFrames: Int64 { get }

    /// Takes back up to `frames` queued frames that have not been heard yet, so they can be replaced
    /// (by a fade-out, say). Returns how many were taken back (zero where the device cannot rewind).
    func rewind(_ frames: Int64) -> Int64

    /// Stops sound at once and forgets what is queued; `playedFrames` restarts from zero.
    func discard()

    /// Plays out what is queued, then tells the delegate `audioSinkDrained`.
    func finish()

    /// Holds (true) or releases (false) the device without losing what is queued, where the hardware
    /// can pause; false where it cannot.
    func hardwarePause(_ on: Bool) -> Bool
}
