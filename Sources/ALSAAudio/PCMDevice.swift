internal import CALSA
import Devices
import Glibc

/// One open ALSA playback PCM in non-blocking mode: the raw calls, with ALSA's error codes turned into
/// `AudioSinkError`s. No policy here; ALSASink decides what to do.
final class PCMDevice {
    let name: String
    let format: AudioFormat
    private let pcm: OpaquePointer
    /// Frames in the device's ring buffer, and in one period (the wake-up granularity).
    let bufferFrames: Int
    let periodFrames: Int
    /// Whether the hardware can pause (snd_pcm_hw_params_can_pause).
    let canPause: Bool

    /// What to ask for: ~400 ms of buffer in 4 periods = ~10 wake-ups a second while playing. Pause and
    /// seek do not wait for the buffer: they rewind it (see ALSASink), so latency stays near one period.
    static let bufferMicroseconds: UInt32 = 400_000
    static let periodMicroseconds: UInt32 = 100_000

    init(name: String, format: AudioFormat) throws(AudioSinkError) {
        self.name = name
        self.format = format
        stillroom_alsa_silence_library_errors()
        var handle: OpaquePointer?
        var code = snd_pcm_open(&handle, name, SND_PCM_STREAM_PLAYBACK, Int32(SND_PCM_NONBLOCK))
        guard code == 0, let handle else { throw Self.error(.unavailable, "snd_pcm_open(\(name))", code) }
        pcm = handle
        var hw: OpaquePointer?
        snd_pcm_hw_params_malloc(&hw)
        defer { snd_pcm_hw_params_free(hw) }
        var bufferTime = Self.bufferMicroseconds
        var periodTime = Self.periodMicroseconds
        let steps: [(String, () -> Int32)] = [
            ("hw_params_any", { snd_pcm_hw_params_any(handle, hw) }),
            ("set_access", { snd_pcm_hw_params_set_access(handle, hw, SND_PCM_ACCESS_RW_INTERLEAVED) }),
            ("set_format S16_LE", { snd_pcm_hw_params_set_format(handle, hw, SND_PCM_FORMAT_S16_LE) }),
            ("set_channels \(format.channels)", { snd_pcm_hw_params_set_channels(handle, hw, UInt32(format.channels)) }),
            ("set_rate \(format.sampleRate)", { snd_pcm_hw_params_set_rate(handle, hw, UInt32(format.sampleRate), 0) }),
            ("set_buffer_time_near", { snd_pcm_hw_params_set_buffer_time_near(handle, hw, &bufferTime, nil) }),
            ("set_period_time_near", { snd_pcm_hw_params_set_period_time_near(handle, hw, &periodTime, nil) }),
            ("hw_params", { snd_pcm_hw_params(handle, hw) }),
        ]
        for (step, call) in steps {
            code = call()
            guard code >= 0 else {
                snd_pcm_close(handle)
                throw Self.error(.unavailable, "\(name): \(step)", code)
            }
        }
        var buffer: snd_pcm_uframes_t = 0
        var period: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_buffer_size(hw, &buffer)
        snd_pcm_hw_params_get_period_size(hw, &period, nil)
        bufferFrames = Int(buffer)
        periodFrames = Int(period)
        canPause = snd_pcm_hw_params_can_pause(hw) == 1

        var sw: OpaquePointer?
        snd_pcm_sw_params_malloc(&sw)
        defer { snd_pcm_sw_params_free(sw) }
        snd_pcm_sw_params_current(handle, sw)
        // Start once all but one period is queued (MPD's choice): a full buffer from the first moment.
        snd_pcm_sw_params_set_start_threshold(handle, sw, buffer - period)
        // Wake when a whole period is free: few wake-ups, each doing a period's work.
        snd_pcm_sw_params_set_avail_min(handle, sw, period)
        code = snd_pcm_sw_params(handle, sw)
        guard code >= 0 else {
            snd_pcm_close(handle)
            throw Self.error(.unavailable, "\(name): sw_params", code)
        }
    }

    deinit { snd_pcm_close(pcm) }

    // MARK: Poll descriptors

    func pollDescriptors() -> [pollfd] {
        let count = Int(snd_pcm_poll_descriptors_count(pcm))
        guard count > 0 else { return [] }
        var descriptors = [pollfd](repeating: pollfd(), count: count)
        let filled = Int(snd_pcm_poll_descriptors(pcm, &descriptors, UInt32(count)))
        return Array(descriptors.prefix(max(0, filled)))
    }

    /// Turns the raw poll results (the whole array, in order) into what they mean for playback.
    func demangle(_ descriptors: inout [pollfd]) -> Int16 {
        var revents: UInt16 = 0
        snd_pcm_poll_descriptors_revents(pcm, &descriptors, UInt32(descriptors.count), &revents)
        return Int16(bitPattern: revents)
    }

    // MARK: Data

    enum WriteOutcome {
        case accepted(Int)
        case full
        case underrun
        case suspended
        case failed(AudioSinkError)
    }

    func write(_ samples: UnsafeBufferPointer<Int16>) -> WriteOutcome {
        let frames = samples.count / format.channels
        let result = snd_pcm_writei(pcm, samples.baseAddress, snd_pcm_uframes_t(frames))
        if result >= 0 { return .accepted(Int(result)) }
        switch Int32(result) {
        case -EAGAIN: return .full
        case -EPIPE: return .underrun
        case -ESTRPIPE: return .suspended
        case -ENODEV, -ENOTTY, -EBADFD, -EIO: return .failed(Self.error(.lost, "\(name): write", Int32(result)))
        default: return .failed(Self.error(.failed, "\(name): write", Int32(result)))
        }
    }

    /// Frames written but not yet audible (snd_pcm_delay), or nil when the device cannot say.
    func delay() -> Int? {
        var frames: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &frames) == 0 else { return nil }
        return max(0, Int(frames))
    }

    func rewindable() -> Int { max(0, Int(snd_pcm_rewindable(pcm))) }

    func rewind(_ frames: Int) -> Int {
        let result = snd_pcm_rewind(pcm, snd_pcm_uframes_t(frames))
        return max(0, Int(result))
    }

    // MARK: State

    enum State { case open, setup, prepared, running, xrun, draining, paused, suspended, disconnected }

    var state: State {
        switch snd_pcm_state(pcm) {
        case SND_PCM_STATE_OPEN: return .open
        case SND_PCM_STATE_SETUP: return .setup
        case SND_PCM_STATE_PREPARED: return .prepared
        case SND_PCM_STATE_RUNNING: return .running
        case SND_PCM_STATE_XRUN: return .xrun
        case SND_PCM_STATE_DRAINING: return .draining
        case SND_PCM_STATE_PAUSED: return .paused
        case SND_PCM_STATE_SUSPENDED: return .suspended
        default: return .disconnected
        }
    }

    /// Stops at once, dropping what is queued, and prepares for new frames.
    func dropAndPrepare() throws(AudioSinkError) {
        snd_pcm_drop(pcm)
        try prepare()
    }

    func prepare() throws(AudioSinkError) {
        let code = snd_pcm_prepare(pcm)
        guard code == 0 else { throw Self.error(code == -ENODEV ? .lost : .failed, "\(name): prepare", code) }
    }

    /// Starts a prepared device that holds fewer frames than the start threshold.
    func start() {
        _ = snd_pcm_start(pcm) // fails harmlessly when already running or empty
    }

    /// Hardware pause on or off; false where the device cannot.
    func pause(_ on: Bool) -> Bool {
        guard canPause else { return false }
        return snd_pcm_pause(pcm, on ? 1 : 0) == 0
    }

    /// One non-blocking recovery step after an underrun or a suspend (never snd_pcm_recover, which
    /// sleeps in a loop for ESTRPIPE). Returns false when the device must be re-tried later.
    func recover() throws(AudioSinkError) -> Bool {
        switch state {
        case .suspended:
            let code = snd_pcm_resume(pcm)
            if code == -EAGAIN { return false }
            if code < 0 { try prepare() }
            return true
        case .xrun, .setup, .open:
            try prepare()
            return true
        case .paused:
            _ = pause(false)
            return true
        case .disconnected:
            throw AudioSinkError(.lost, "\(name): the device is gone")
        case .prepared, .running, .draining:
            return true
        }
    }

    static func error(_ kind: AudioSinkError.Kind, _ operation: String, _ code: Int32) -> AudioSinkError {
        AudioSinkError(kind, "\(operation): \(String(cString: snd_strerror(code)))")
    }
}
