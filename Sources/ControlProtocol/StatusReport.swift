import StillroomCore

/// The `status` answer (and the answer of every command that moves the player): built by the daemon, and
/// by the CLI from the database when the daemon is down (`daemon` false, state "stopped": the session and
/// place of the last checkpoint, the open notices; `live` is nil and its fields are left out).
///
///     {"state": "playing", "daemon": true, "session": "sweep", "title": "Sweep", "position": 12.5,
///      "duration": 300.024, "resumeOffer": null, "lastCheckpoint": {"session", "position", "ageSeconds"},
///      "notices": [{"id", "kind", "message"}], "pauseReason": null, "volume": 60, "effectiveVolume": 60,
///      "headphones": false, "output": {"name", "available", "problem"}, "storage": {"canSave": true}, …}
///
/// Times are seconds to the millisecond. The fields of `Observed` are what tests and soaks synchronise on
/// instead of sleeping.
public struct StatusReport: Equatable, Sendable {
    public struct ResumeOffer: Equatable, Sendable {
        public var session: String
        public var title: String
        public var position: Double

        public init(session: String, title: String, position: Double) {
            self.session = session
            self.title = title
            self.position = position
        }
    }

    public struct Checkpoint: Equatable, Sendable {
        public var session: String
        public var position: Double
        /// How long ago it was written (the daemon only).
        public var ageSeconds: Double?

        public init(session: String, position: Double, ageSeconds: Double? = nil) {
            self.session = session
            self.position = position
            self.ageSeconds = ageSeconds
        }
    }

    public struct Notice: Equatable, Sendable {
        public var id: Int64
        public var kind: NoticeKind
        public var message: String

        public init(id: Int64, kind: NoticeKind, message: String) {
            self.id = id
            self.kind = kind
            self.message = message
        }
    }

    /// What only the running daemon knows.
    public struct Live: Equatable, Sendable {
        /// Why it is paused (on the wire the raw value: "user", "headphonesRemoved"…), else nil.
        public var pauseReason: PauseReason?
        public var volume: Int
        public var effectiveVolume: Int
        public var headphones: Bool
        public var outputName: String
        public var outputAvailable: Bool
        public var outputProblem: String?
        /// Why playback failed, or what is damaged in the recording.
        public var error: String?
        /// Why the data folder cannot take a write now; nil when it can.
        public var storageProblem: String?
        public var observed: Observed

        public init(pauseReason: PauseReason?, volume: Int, effectiveVolume: Int, headphones: Bool, outputName: String,
                    outputAvailable: Bool, outputProblem: String?, error: String?, storageProblem: String?, observed: Observed) {
            self.pauseReason = pauseReason
            self.volume = volume
            self.effectiveVolume = effectiveVolume
            self.headphones = headphones
            self.outputName = outputName
            self.outputAvailable = outputAvailable
            self.outputProblem = outputProblem
            self.error = error
            self.storageProblem = storageProblem
            self.observed = observed
        }
    }

    /// What tests and soaks wait for: labels said and pending, input handled, frames shown, seconds heard.
    public struct Observed: Equatable, Sendable {
        public var spokenLabels = 0
        public var labelPending = false
        /// The last labels said, word for word, oldest first.
        public var spoken: [String] = []
        public var describer = false
        public var cuesPlayed = 0
        /// Nothing playing or playing out.
        public var outputIdle = true
        public var inputEvents = 0
        /// nil without a screen.
        public var framesPresented: Int?
        public var framePending = false
        public var heardSeconds = 0.0
        /// "on", "dim", "off" or "none".
        public var screen = "none"
        public var page = ""
        /// Under `--time-warp` only.
        public var timeWarp: TimeWarp?

        public init() {}
    }

    /// A soak's driver plans in the box's (warped) time.
    public struct TimeWarp: Equatable, Sendable {
        public var factor: Int
        /// The box's wall time, seconds since 1970.
        public var wallTime: Double

        public init(factor: Int, wallTime: Double) {
            self.factor = factor
            self.wallTime = wallTime
        }
    }

    public var state: PlayerState
    public var session: String?
    public var title: String?
    public var position: Double
    public var duration: Double
    public var resumeOffer: ResumeOffer?
    public var lastCheckpoint: Checkpoint?
    public var notices: [Notice]
    /// nil when read from the database.
    public var live: Live?

    public init(state: PlayerState, session: String?, title: String?, position: Double, duration: Double, resumeOffer: ResumeOffer?,
                lastCheckpoint: Checkpoint?, notices: [Notice], live: Live?) {
        self.state = state
        self.session = session
        self.title = title
        self.position = position
        self.duration = duration
        self.resumeOffer = resumeOffer
        self.lastCheckpoint = lastCheckpoint
        self.notices = notices
        self.live = live
    }
}
