import FoundationEssentials

/// What the player is doing.
public enum PlayerPhase: Equatable, Sendable {
    /// Nothing chosen (or stopped).
    case idle
    /// Opening the recording and the output; plays when ready.
    case loading
    case playing
    case paused
    /// The recording played to its end.
    case ended
    /// The recording or the output failed; the message says what and what to do.
    case failed(String)
}

/// Why playback is paused: the screen says it, and the policy table (docs/playback-policy.md) decides
/// what may resume it.
public enum PauseReason: String, Equatable, Sendable {
    case user, headphonesRemoved, outputLost, interruption, shutdown
    /// The recording cannot be decoded past this place; the knob can seek beyond the damage.
    case damagedRecording
}

/// A saved place in a recording: written at every checkpoint, read back after a restart.
public struct PlaybackPosition: Equatable, Sendable {
    public var sessionID: String
    public var frame: Int64
    public var sampleRate: Int

    public init(sessionID: String, frame: Int64, sampleRate: Int) {
        self.sessionID = sessionID
        self.frame = frame
        self.sampleRate = sampleRate
    }

    public var seconds: Double { sampleRate > 0 ? Double(frame) / Double(sampleRate) : 0 }
}

/// "Resume <title> at 12:34": offered after a restart, never played by itself.
public struct ResumeOffer: Equatable, Sendable {
    public var position: PlaybackPosition
    public var title: String
}

/// Inputs to the player: requests from people (buttons, CLI) and reports from the playback engine.
public enum PlayerEvent: Equatable, Sendable {
    case play(sessionID: String, title: String, from: Int64 = 0)
    case pause(PauseReason)
    case resume
    case toggle
    case stop
    /// Seek to a frame (clamped to the recording).
    case seek(toFrame: Int64)
    case seekBy(frames: Int64)
    /// Seek to a place in seconds (a control's), at the recording's rate; nothing while none is loaded.
    case seekTo(seconds: Double)
    case acceptResume
    case dismissResume

    /// The engine opened the recording: its exact length and rate.
    case loaded(lengthFrames: Int64, sampleRate: Int)
    case loadFailed(String)
    /// The position the listener has reached (frames heard, mapped to the recording).
    case heard(positionFrame: Int64)
    /// The engine finished a pause: the exact frame playback will continue from.
    case pausedAt(frame: Int64)
    case reachedEnd
    /// The recording could not be decoded from `atFrame` on (a damaged file): not an end.
    case damaged(String, atFrame: Int64)
    case outputLost(String)
    case outputRestored
    case headphones(connected: Bool)
    /// The periodic checkpoint timer fired.
    case checkpointTimer
    /// SIGTERM: save where we are.
    case shutdown

    /// A listener's request that would start sound (PLAY, resume, the toggle, accepting the offered place).
    public var asksForSound: Bool {
        switch self {
        case .play, .resume, .toggle, .acceptResume: return true
        default: return false
        }
    }
}

/// What the player asks the daemon to do.
public enum PlayerEffect: Equatable, Sendable {
    /// Open `sessionID`'s recording; report `.loaded` or `.loadFailed`.
    case load(sessionID: String)
    /// Start sound at `frame`, fading in.
    case startOutput(fromFrame: Int64)
    /// Fade out and stop; report `.pausedAt` with the exact frame.
    case pauseOutput
    /// Stop at once (the output is gone or the session is over); nothing to fade.
    case stopOutput
    /// Jump while playing, with a short fade out and in.
    case seekOutput(toFrame: Int64)
    case saveCheckpoint(PlaybackPosition)
    case clearCheckpoint(sessionID: String)
    /// Fire `.checkpointTimer` at this time (replaces an earlier schedule).
    case scheduleCheckpoint(at: MonotonicInstant)
    case cancelCheckpointTimer
}

/// The player state machine: pure, driven by events and `now`, answering with effects.
///
/// Checkpoints follow DESIGN.md §5: on pause, seek commit, route change, interruption and shutdown, and
/// every `checkpointInterval` of playback; never while idle or paused (nothing moves then).
public struct PlayerMachine: Equatable, Sendable {
    public static let checkpointInterval: Duration = .seconds(10)
    /// A resume offer starts this far before the saved place, so the listener finds the thread again.
    public static let resumeRewindSeconds = 5

    public private(set) var phase: PlayerPhase = .idle
    public private(set) var sessionID: String?
    public private(set) var title = ""
    /// The frame the listener has reached.
    public private(set) var position: Int64 = 0
    public private(set) var lengthFrames: Int64 = 0
    public private(set) var sampleRate = 0
    public private(set) var pauseReason: PauseReason?
    public private(set) var resumeOffer: ResumeOffer?
    public private(set) var outputAvailable = true
    /// What went wrong with the output, while it is unavailable.
    public private(set) var outputProblem: String?
    public private(set) var headphonesConnected = false
    /// Why the recording stopped, while paused at damage (`pauseReason == .damagedRecording`).
    public private(set) var damage: String?
    /// The position last asked to be written to the store (what reached it, and when, is the daemon's
    /// to know: Daemon.checkpointOnCard).
    public private(set) var lastCheckpoint: PlaybackPosition?
    /// Where to start once loading finishes.
    private var startFrame: Int64 = 0
    /// Whether loading should start sound (false when a resume was accepted while output was lost).
    private var playWhenLoaded = true
    /// A pause was asked for and the output has not yet said where it stopped (its short fade-out).
    private var awaitingPausedAt = false
    /// The listener chose a new place during that fade: the output's late reports of where it was must
    /// not undo the choice.
    private var seekedWhilePausing = false

    public init() {}

    /// A player offering to resume from `checkpoint` (after a restart or a power cut).
    public init(resumeFrom checkpoint: PlaybackPosition?, title: String) {
        if let checkpoint {
            var offered = checkpoint
            offered.frame = max(0, checkpoint.frame - Int64(Self.resumeRewindSeconds * checkpoint.sampleRate))
            resumeOffer = ResumeOffer(position: offered, title: title)
            lastCheckpoint = checkpoint
        }
    }

    public var positionSeconds: Double { sampleRate > 0 ? Double(position) / Double(sampleRate) : 0 }
    public var lengthSeconds: Double { sampleRate > 0 ? Double(lengthFrames) / Double(sampleRate) : 0 }
    public var isPlaying: Bool { phase == .playing }

    public mutating func handle(_ event: PlayerEvent, now: MonotonicInstant) -> [PlayerEffect] {
        switch event {
        case .play(let id, let newTitle, let from):
            let effects = leaveCurrentSession(now: now)
            resumeOffer = nil
            return effects + beginLoading(id, newTitle, from: from)

        case .acceptResume:
            guard let offer = resumeOffer else { return [] }
            resumeOffer = nil
            return leaveCurrentSession(now: now) + beginLoading(offer.position.sessionID, offer.title, from: offer.position.frame)

        case .dismissResume:
            guard let offer = resumeOffer else { return [] }
            resumeOffer = nil
            lastCheckpoint = nil
            return [.clearCheckpoint(sessionID: offer.position.sessionID)]

        case .loaded(let length, let rate):
            guard phase == .loading else { return [] }
            lengthFrames = length
            sampleRate = rate
            position = min(startFrame, max(0, length - 1))
            guard playWhenLoaded, outputAvailable else {
                phase = .paused
                pauseReason = outputAvailable ? .user : .outputLost
                return []
            }
            return startPlaying(now: now)

        case .loadFailed(let message):
            guard phase == .loading else { return [] }
            phase = .failed(message)
            return [.cancelCheckpointTimer]

        case .pause(let reason):
            switch phase {
            case .playing:
                phase = .paused
                pauseReason = reason
                awaitingPausedAt = true
                return [.pauseOutput, .cancelCheckpointTimer]
            case .loading:
                playWhenLoaded = false
                pauseReason = reason
                return []
            default:
                return []
            }

        case .resume:
            return resume(now: now)

        case .toggle:
            switch phase {
            case .playing: return handle(.pause(.user), now: now)
            case .idle where resumeOffer != nil: return handle(.acceptResume, now: now)
            default: return resume(now: now)
            }

        case .stop:
            return leaveCurrentSession(now: now)

        case .seek(let frame):
            return seek(to: frame, now: now)

        case .seekBy(let frames):
            // Saturating: the target is clamped to the recording anyway, and no jump may overflow.
            let (target, overflow) = position.addingReportingOverflow(frames)
            return seek(to: overflow ? (frames < 0 ? 0 : .max) : target, now: now)

        case .seekTo(let seconds):
            guard sampleRate > 0, seconds.isFinite else { return [] }
            let frame = (seconds * Double(sampleRate)).rounded(.towardZero)
            return seek(to: frame >= Double(Int64.max) ? .max : Int64(max(0, frame)), now: now)

        case .heard(let frame):
            guard sessionID != nil, phase == .playing || phase == .paused, !seekedWhilePausing else { return [] }
            position = max(0, min(frame, lengthFrames))
            return []

        case .pausedAt(let frame):
            guard let id = sessionID, phase == .paused || phase == .idle else { return [] }
            awaitingPausedAt = false
            if seekedWhilePausing {
                seekedWhilePausing = false // the chosen place stands, and is already saved
                return []
            }
            position = max(0, min(frame, lengthFrames))
            return checkpoint(id, now: now)

        case .reachedEnd:
            guard let id = sessionID, phase == .playing else { return [] }
            phase = .ended
            position = lengthFrames
            lastCheckpoint = nil
            return [.cancelCheckpointTimer, .clearCheckpoint(sessionID: id)]

        case .damaged(let message, let frame):
            // Not the end, and not finished: the place is kept, and the listener is told why it stopped.
            guard let id = sessionID, phase == .playing || phase == .paused else { return [] }
            phase = .paused
            pauseReason = .damagedRecording
            damage = message
            awaitingPausedAt = false
            seekedWhilePausing = false
            position = max(0, min(frame, lengthFrames))
            return [.stopOutput, .cancelCheckpointTimer] + checkpoint(id, now: now)

        case .outputLost(let message):
            outputAvailable = false
            outputProblem = message
            guard phase == .playing else { return [] }
            phase = .paused
            pauseReason = .outputLost
            // No fade is possible: the device is gone. The position is the last frame heard.
            var effects: [PlayerEffect] = [.stopOutput, .cancelCheckpointTimer]
            if let id = sessionID { effects += checkpoint(id, now: now) }
            return effects

        case .outputRestored:
            outputAvailable = true
            outputProblem = nil
            return [] // never auto-resume: the listener decides

        case .headphones(let connected):
            let wasConnected = headphonesConnected
            headphonesConnected = connected
            // Pulled out: pause at once (the speaker must not suddenly play). Plugged in: stay as we are.
            guard wasConnected, !connected, phase == .playing else { return [] }
            return handle(.pause(.headphonesRemoved), now: now)

        case .checkpointTimer:
            guard let id = sessionID, phase == .playing else { return [] }
            var effects: [PlayerEffect] = []
            if lastCheckpoint?.frame != position || lastCheckpoint?.sessionID != id {
                effects += checkpoint(id, now: now)
            }
            return effects + [.scheduleCheckpoint(at: now + Self.checkpointInterval)]

        case .shutdown:
            guard let id = sessionID, phase == .playing || phase == .paused else { return [] }
            return [.cancelCheckpointTimer] + checkpoint(id, now: now)
        }
    }

    // MARK: Steps

    private mutating func beginLoading(_ id: String, _ newTitle: String, from frame: Int64) -> [PlayerEffect] {
        sessionID = id
        title = newTitle
        phase = .loading
        position = 0
        lengthFrames = 0
        startFrame = max(0, frame)
        playWhenLoaded = true
        pauseReason = nil
        damage = nil
        return [.load(sessionID: id)]
    }

    private mutating func startPlaying(now: MonotonicInstant) -> [PlayerEffect] {
        phase = .playing
        pauseReason = nil
        damage = nil
        awaitingPausedAt = false
        seekedWhilePausing = false
        var effects: [PlayerEffect] = [.startOutput(fromFrame: position), .scheduleCheckpoint(at: now + Self.checkpointInterval)]
        // A checkpoint as playback starts (one write per press), so a power cut in the first ten seconds
        // still finds a place to offer. Skipped when the place is already saved (resuming a pause).
        if let id = sessionID, lastCheckpoint != PlaybackPosition(sessionID: id, frame: position, sampleRate: sampleRate) {
            effects += checkpoint(id, now: now)
        }
        return effects
    }

    private mutating func resume(now: MonotonicInstant) -> [PlayerEffect] {
        switch phase {
        case .paused:
            guard outputAvailable else { return [] }
            return startPlaying(now: now)
        case .ended:
            position = 0
            return startPlaying(now: now)
        case .loading:
            playWhenLoaded = true
            return []
        default:
            return []
        }
    }

    private mutating func seek(to frame: Int64, now: MonotonicInstant) -> [PlayerEffect] {
        guard let id = sessionID, lengthFrames > 0 else { return [] }
        // Seeking to the very end would end the run without hearing it; stop one second short.
        let target = max(0, min(frame, lengthFrames - Int64(sampleRate)))
        switch phase {
        case .playing:
            position = target
            return [.seekOutput(toFrame: target)] + checkpoint(id, now: now)
        case .paused, .ended:
            if phase == .ended { phase = .paused; pauseReason = .user }
            if awaitingPausedAt { seekedWhilePausing = true }
            position = target
            return checkpoint(id, now: now)
        default:
            return []
        }
    }

    /// Saves the current place of a session that is being left (another session chosen, or stop).
    private mutating func leaveCurrentSession(now: MonotonicInstant) -> [PlayerEffect] {
        guard let id = sessionID else { return [] }
        var effects: [PlayerEffect] = []
        switch phase {
        case .playing:
            effects = [.stopOutput, .cancelCheckpointTimer] + checkpoint(id, now: now)
        case .paused:
            effects = [.stopOutput] + checkpoint(id, now: now)
        case .loading:
            effects = [.stopOutput]
        default:
            effects = phase == .ended ? [.stopOutput] : []
        }
        phase = .idle
        sessionID = nil
        pauseReason = nil
        damage = nil
        return effects
    }

    private mutating func checkpoint(_ id: String, now: MonotonicInstant) -> [PlayerEffect] {
        let saved = PlaybackPosition(sessionID: id, frame: position, sampleRate: sampleRate)
        lastCheckpoint = saved
        return [.saveCheckpoint(saved)]
    }
}
