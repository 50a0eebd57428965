/// The durable playback position of one session (table `playback_checkpoint`), one row per session.
///
/// "The latest checkpoint" is the row with the highest `sequence`, never the highest `savedAt`: the wall
/// clock of a box without an RTC can jump backwards when NTP first syncs, while the sequence only grows.
public struct PlaybackCheckpointRecord: Hashable, Sendable {
    /// The catalog session id.
    public var sessionID: String
    /// Position in sample frames actually played by the device (not decoded, not wall time).
    public var positionFrames: Int64
    /// The sample rate `positionFrames` counts in.
    public var sampleRate: Int
    /// Wall time of the save (for display only; see `clockTrusted`).
    public var savedAt: UnixMilliseconds
    /// Whether the system clock was synchronised when `savedAt` was read.
    public var clockTrusted: Bool
    /// Assigned by the store on every save: greater than every other checkpoint's sequence at that time.
    public var sequence: Int64

    public init(
        sessionID: String, positionFrames: Int64, sampleRate: Int, savedAt: UnixMilliseconds,
        clockTrusted: Bool, sequence: Int64
    ) {
        self.sessionID = sessionID
        self.positionFrames = positionFrames
        self.sampleRate = sampleRate
        self.savedAt = savedAt
        self.clockTrusted = clockTrusted
        self.sequence = sequence
    }

    /// The position in seconds (for display and logs).
    public var positionSeconds: Double {
        sampleRate > 0 ? Double(positionFrames) / Double(sampleRate) : 0
    }
}
