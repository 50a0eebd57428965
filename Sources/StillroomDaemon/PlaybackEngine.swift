import Devices
import EventLoop
import MPG123Decoder
import Resampling
import StillroomCore

/// Moves audio from the decoder, through the gain stage, into the sink, and reports what was heard.
///
/// It performs the player's output effects and answers with player events: `.loaded`, `.pausedAt`,
/// `.reachedEnd`, `.outputLost`. Pause and seek take back the unheard part of the sink's buffer (rewind)
/// and replace it with a short fade, so they take effect within a fade plus what the device cannot give
/// back, instead of a whole buffer. Where a device cannot rewind at all, it pauses in hardware, or drops
/// the buffer as the last resort.
final class PlaybackEngine: AudioSinkDelegate {
    /// Player events produced by the engine.
    var onEvent: (PlayerEvent) -> Void = { _ in }
    /// Recording frame ranges heard since the last report (for practice accounting).
    var onHeard: ([Range<Int64>]) -> Void = { _ in }

    let sink: AudioSink
    private let logger: Logger
    private let lengths: (String) -> Int64?
    private let rememberLength: (String, Int64) -> Void
    private var decoder: MP3Decoder?
    private var map = PlayoutMap()
    private var gain = GainStage(gain: 1)
    private var targetGain: Float = 1
    /// The voice's and the cues' gain when no recording plays under them (VolumePolicy.voiceAloneVolume);
    /// over a recording they follow `targetGain`.
    private var voiceAloneGain: Float = 1

    private enum Mode: Equatable { case idle, playing, fadingToPause(resumeAt: Int64), hardwarePaused, ending, speaking, endingAtDamage(String) }
    private var mode: Mode = .idle

    private var buffer = [Int16](repeating: 0, count: 4096 * 2)
    /// The samples of `buffer` decoded and not yet taken by the sink: indices, not a slice, which would
    /// share `buffer`'s storage and make the next decode into it copy the whole buffer first.
    private var pending: Range<Int> = 0..<0
    private var pendingRecordingFrame: Int64 = 0
    /// Spoken labels mixed over the recording (or played alone when nothing plays).
    private var mixer = SpeechMixer(sampleRate: 44_100)
    /// Speech waiting for a fade-out to finish before it can play alone.
    private var speechAfterFade: [Int16]?
    /// A seek the listener has not reached yet (its fade-out is still queued): a pause now keeps it.
    private var seekTarget: (frame: Int64, sinkFrame: Int64)?

    /// Fades, in milliseconds: long enough to remove clicks, short enough to feel immediate.
    static let fadeInMilliseconds = 60
    static let fadeOutMilliseconds = 40
    static let seekFadeMilliseconds = 20
    /// Longest acceptable time from "pause" to silence.
    static let pauseLatencyMilliseconds = 100

    init(sink: AudioSink, logger: Logger, lengths: @escaping (String) -> Int64?,
         rememberLength: @escaping (String, Int64) -> Void) {
        self.sink = sink
        self.logger = logger
        self.lengths = lengths
        self.rememberLength = rememberLength
        sink.delegate = self
    }

    var sampleRate: Int { decoder?.sampleRate ?? 0 }

    /// The recording frame the listener has reached.
    var heardPosition: Int64? {
        guard decoder != nil else { return nil }
        return map.recordingPosition(afterPlayed: sink.playedFrames)
    }

    /// Sets the output gain (volume and caps), ramping to it so a volume change never clicks, and the
    /// voice's gain when it plays alone (over a recording it follows the recording's).
    func setGain(_ value: Float, voiceAlone: Float? = nil) {
        targetGain = value
        voiceAloneGain = voiceAlone ?? value
        if mode == .playing {
            gain.ramp(to: value, over: frames(milliseconds: 50))
            mixer.setLevel(value)
        } else if mode == .speaking {
            mixer.setLevel(voiceAloneGain)
        }
    }

    // MARK: Effects

    func load(path: String) {
        stop()
        do {
            let opened = try MP3Decoder(path: path)
            let length: Int64
            if let cached = lengths(path) {
                length = cached
            } else {
                length = try opened.scanLength()
                rememberLength(path, length)
            }
            decoder = opened
            onEvent(.loaded(lengthFrames: length, sampleRate: opened.sampleRate))
        } catch {
            logger.error("cannot play \(path): \(error.kind.rawValue): \(error.detail)")
            onEvent(.loadFailed(Self.describe(error)))
        }
    }

    func start(fromFrame frame: Int64) {
        guard let decoder else { return }
        if mode == .hardwarePaused, sink.hardwarePause(false) {
            mode = .playing
            return
        }
        do {
            let format = AudioFormat(sampleRate: decoder.sampleRate)
            if sink.format != format {
                try sink.open(format: format)
            } else {
                sink.discard()
            }
            try decoder.seek(toFrame: frame)
        } catch let error as AudioSinkError {
            onEvent(.outputLost("\(sink.name): \(error.detail)"))
            return
        } catch {
            onEvent(.loadFailed("\(error)"))
            return
        }
        map.reset()
        pending = 0..<0
        seekTarget = nil
        pendingRecordingFrame = frame
        gain.jump(to: 0)
        gain.ramp(to: targetGain, over: frames(milliseconds: Self.fadeInMilliseconds))
        if mixer.isSounding { mixer.setLevel(targetGain) } // a label going on over the recording: its level
        mode = .playing
        fill()
    }

    func pause() {
        guard mode == .playing, let decoder else { return }
        reportHeard()
        let rewound = takeBackQueue()
        let unrecoverable = sink.queuedFrames
        if unrecoverable > frames(milliseconds: Self.pauseLatencyMilliseconds) {
            // The device could not give its buffer back: hold it in hardware, or drop it.
            if sink.hardwarePause(true) {
                mode = .hardwarePaused
                onEvent(.pausedAt(frame: heardPosition ?? 0))
                return
            }
            let position = heardPosition ?? 0
            sink.discard()
            map.reset()
            mode = .idle
            logger.debug("pause: device kept \(unrecoverable) frames and cannot pause; dropped them")
            onEvent(.pausedAt(frame: position))
            return
        }
        var resumeAt = map.recordingPosition(afterPlayed: map.writtenFrames) ?? decoder.position
        if let target = pendingSeekTarget() { resumeAt = target } // the seek was asked for: keep it
        logger.debug("pause: took back \(rewound) frames, fading out from frame \(resumeAt)")
        writeFade(from: resumeAt, milliseconds: Self.fadeOutMilliseconds)
        mode = .fadingToPause(resumeAt: resumeAt)
        sink.finish()
    }

    /// Where the last seek's fade-out began in the recording: the first frame the output could not take
    /// back (for tests that compare it with what was captured).
    private(set) var lastSeekFadeStart: Int64?

    func seek(toFrame target: Int64) {
        guard mode == .playing, let decoder else { return }
        // What was heard up to here counts; the old place is not reported (the player already stands at
        // the target, and the answer to `seek` must say so, not where the listener was).
        reportHeard(position: false)
        _ = takeBackQueue()
        let from = map.recordingPosition(afterPlayed: map.writtenFrames) ?? decoder.position
        lastSeekFadeStart = from
        writeFade(from: from, milliseconds: Self.seekFadeMilliseconds)
        seekTarget = (target, map.writtenFrames)
        do {
            try decoder.seek(toFrame: target)
        } catch {
            // The place asked for cannot be reached: stop where the listener was, and say why.
            logger.error("seeking \(decoder.path) to frame \(target) failed: \(error.detail)")
            sink.discard()
            map.reset()
            mode = .idle
            onEvent(.damaged(Self.describe(error), atFrame: from))
            return
        }
        pending = 0..<0
        pendingRecordingFrame = target
        gain.jump(to: 0)
        gain.ramp(to: targetGain, over: frames(milliseconds: Self.seekFadeMilliseconds))
        fill()
    }

    /// `mono` (at `rate` Hz) resampled to the rate the sink plays at, with the mixer set to that rate.
    private func atOutputRate(_ mono: [Int16], rate: Int) -> (samples: [Int16], rate: Int) {
        let outputRate = sink.format?.sampleRate ?? (decoder?.sampleRate ?? 44_100)
        if mixer.sampleRate != outputRate { mixer = SpeechMixer(sampleRate: outputRate) }
        return ((try? Resampler.convert(mono, from: rate, to: outputRate)) ?? [], outputRate)
    }

    /// Says `mono` (at `rate` Hz): over the recording, ducked, when playing; alone otherwise. A newer
    /// label cuts an older one off. Speech starts within what the sink cannot give back (a rewind makes
    /// room at once), not after the whole buffer.
    func speak(_ mono: [Int16], rate: Int) {
        let (samples, outputRate) = atOutputRate(mono, rate: rate)
        switch mode {
        case .playing:
            guard takeBackForMixing() else { return }
            mixer.speak(samples, level: targetGain)
            fill()
        case .fadingToPause:
            speechAfterFade = samples
        case .speaking:
            _ = sink.rewind(sink.queuedFrames)
            mixer.speak(samples, level: voiceAloneGain)
            fillSpeech()
        case .idle, .hardwarePaused, .ending, .endingAtDamage:
            guard mode == .idle, startAlone(rate: outputRate) else { return } // mid-transition: dropped rather than garbled
            mixer.speak(samples, level: voiceAloneGain)
            fillSpeech()
        }
    }

    /// Plays a short cue (`mono` at `rate` Hz) on top of whatever plays, at the voice's level, within what
    /// the sink cannot give back; it cuts nothing off. Mid-transition (a pause fading out) it is dropped.
    func cue(_ mono: [Int16], rate: Int) {
        let (samples, outputRate) = atOutputRate(mono, rate: rate)
        switch mode {
        case .playing:
            guard takeBackForMixing() else { return }
            mixer.cue(samples, level: targetGain)
            fill()
        case .speaking:
            // The voice plays alone: take back what it has not said yet, and say it again with the cue in.
            mixer.stepBack(Int(sink.rewind(sink.queuedFrames)))
            mixer.cue(samples, level: voiceAloneGain)
            fillSpeech()
        case .idle:
            guard startAlone(rate: outputRate) else { return }
            mixer.cue(samples, level: voiceAloneGain)
            fillSpeech()
        case .fadingToPause, .hardwarePaused, .ending, .endingAtDamage:
            return
        }
    }

    /// Takes back the unheard part of the sink's buffer and puts the decoder where the listener is, so
    /// what the mixer adds now is heard within what the device cannot give back. False without a recording.
    private func takeBackForMixing() -> Bool {
        guard let decoder else { return false }
        reportHeard()
        _ = takeBackQueue()
        let resumeAt = pendingSeekTarget() ?? map.recordingPosition(afterPlayed: map.writtenFrames) ?? decoder.position
        _ = try? decoder.seek(toFrame: resumeAt) // a seek within a file already open and scanned
        pendingRecordingFrame = resumeAt
        return true
    }

    /// Opens the output for the mixer alone (nothing else playing).
    private func startAlone(rate: Int) -> Bool {
        do {
            let format = AudioFormat(sampleRate: rate)
            if sink.format != format { try sink.open(format: format) } else { sink.discard() }
        } catch {
            return false
        }
        map.reset()
        mode = .speaking
        return true
    }

    /// Cuts a label off (with a 20 ms fade).
    func stopSpeaking() {
        mixer.cancel()
    }

    var isSpeaking: Bool { mixer.isSpeaking }

    /// Whether nothing is being played or played out: the output has drained everything written to it.
    var isIdle: Bool { mode == .idle }

    /// Writes speech and cues alone (nothing else playing).
    private func fillSpeech() {
        guard mode == .speaking else { return }
        while mixer.isSounding {
            let frames = min(2048, mixer.remainingFrames)
            var chunk = [Int16](repeating: 0, count: frames * MP3Decoder.channels)
            let undo = mixer
            chunk.withUnsafeMutableBufferPointer { mixer.mix(into: $0, frames: frames) }
            let accepted = (try? chunk.withUnsafeBufferPointer { try sink.write($0) }) ?? 0
            if accepted < frames {
                // Only part fitted: step the mixer back to just after what was accepted.
                mixer = undo
                var skip = [Int16](repeating: 0, count: accepted * MP3Decoder.channels)
                skip.withUnsafeMutableBufferPointer { mixer.mix(into: $0, frames: accepted) }
                return
            }
        }
        sink.finish()
    }

    /// Stops at once (no fade): the session is left, or the output is gone.
    func stop() {
        if mode != .idle, sink.format != nil {
            reportHeard()
            sink.discard()
        }
        map.reset()
        pending = 0..<0
        mode = .idle
        mixer.cancel()
        mixer = SpeechMixer(sampleRate: mixer.sampleRate)
        speechAfterFade = nil
    }

    /// Tries to open the output again after it was lost; true when it is back.
    func probeOutput(format: AudioFormat) -> Bool {
        do {
            try sink.open(format: format)
            return true
        } catch {
            return false
        }
    }

    // MARK: Sink events

    func audioSinkWantsFrames(_ sink: AudioSink) {
        reportHeard()
        if mode == .playing { fill() }
        if mode == .speaking { fillSpeech() }
    }

    func audioSinkDrained(_ sink: AudioSink) {
        reportHeard()
        switch mode {
        case .fadingToPause(let resumeAt):
            sink.discard()
            map.reset()
            mode = .idle
            onEvent(.pausedAt(frame: resumeAt))
            if let speech = speechAfterFade {
                speechAfterFade = nil
                speak(speech, rate: mixer.sampleRate)
            }
        case .speaking:
            sink.discard()
            mode = .idle
        case .ending:
            sink.discard()
            map.reset()
            mode = .idle
            onEvent(.reachedEnd)
        case .endingAtDamage(let message):
            let stoppedAt = heardPosition ?? 0
            sink.discard()
            map.reset()
            mode = .idle
            onEvent(.damaged(message, atFrame: stoppedAt))
        default:
            break
        }
    }

    func audioSink(_ sink: AudioSink, failed error: AudioSinkError) {
        logger.error("audio output \(sink.name) failed: \(error)")
        map.reset()
        pending = 0..<0
        mode = .idle
        onEvent(.outputLost("\(sink.name): \(error.detail)"))
    }

    // MARK: Steps

    /// Decodes and writes until the sink is full or the recording ends.
    private func fill() {
        guard let decoder else { return }
        while mode == .playing {
            if pending.isEmpty {
                let position = decoder.position
                let result: MP3Decoder.ReadResult
                do {
                    result = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
                } catch {
                    // Damage is not an end: what was decoded plays out, then the player is told where it stopped.
                    let failure = error as? DecoderError
                    logger.error("decoding \(decoder.path) failed at frame \(position): \(failure?.detail ?? "\(error)")")
                    mode = .endingAtDamage(failure.map(Self.describe) ?? "The recording could not be decoded (\(error)).")
                    sink.finish()
                    return
                }
                switch result {
                case .frames(0):
                    continue
                case .frames(let count):
                    buffer.withUnsafeMutableBufferPointer { samples in
                        gain.apply(to: samples, frames: count)
                        if mixer.isSounding || mixer.isRecovering { mixer.mix(into: samples, frames: count) }
                    }
                    pending = 0..<(count * MP3Decoder.channels)
                    pendingRecordingFrame = position
                case .end:
                    mode = .ending
                    sink.finish()
                    return
                }
            }
            let accepted: Int
            do {
                accepted = try buffer.withUnsafeBufferPointer { try sink.write(UnsafeBufferPointer(rebasing: $0[pending])) }
            } catch {
                return // the sink has told the delegate
            }
            map.appendWritten(recordingFrame: pendingRecordingFrame, count: Int64(accepted))
            pendingRecordingFrame += Int64(accepted)
            pending = pending.dropFirst(accepted * MP3Decoder.channels)
            if !pending.isEmpty { return }
        }
    }

    /// Takes back the unheard part of the sink's buffer; returns the frames taken.
    private func takeBackQueue() -> Int64 {
        pending = 0..<0
        let taken = sink.rewind(sink.queuedFrames)
        map.truncate(toWritten: map.writtenFrames - taken)
        return taken
    }

    /// Writes a short fade to silence of the recording from `frame`.
    private func writeFade(from frame: Int64, milliseconds: Int) {
        guard let decoder else { return }
        let fadeFrames = frames(milliseconds: milliseconds)
        do {
            try decoder.seek(toFrame: frame)
        } catch {
            return
        }
        var fade = [Int16](repeating: 0, count: fadeFrames * MP3Decoder.channels)
        var filled = 0
        while filled < fadeFrames {
            let result = try? fade.withUnsafeMutableBufferPointer { whole -> MP3Decoder.ReadResult in
                let rest = UnsafeMutableBufferPointer(rebasing: whole[(filled * MP3Decoder.channels)...])
                return try decoder.read(into: rest)
            }
            guard case .frames(let count) = result else { break }
            filled += count
        }
        var fadeGain = GainStage(gain: gain.current)
        fadeGain.ramp(to: 0, over: filled)
        fade.withUnsafeMutableBufferPointer { fadeGain.apply(to: $0, frames: filled) }
        let accepted = (try? fade[..<(filled * MP3Decoder.channels)].withUnsafeBufferPointer { try sink.write($0) }) ?? 0
        map.appendWritten(recordingFrame: frame, count: Int64(accepted))
    }

    /// The target of a seek whose new audio has not been heard yet.
    private func pendingSeekTarget() -> Int64? {
        guard let target = seekTarget else { return nil }
        if sink.playedFrames >= target.sinkFrame {
            seekTarget = nil
            return nil
        }
        return target.frame
    }

    private func reportHeard(position reportsPosition: Bool = true) {
        guard mode != .idle, decoder != nil, sink.format != nil else { return }
        let ranges = map.takeHeard(upTo: sink.playedFrames)
        if !ranges.isEmpty { onHeard(ranges) }
        // Until a seek's new audio is heard, the fade and the old audio the device could not give back
        // are playing: the place is the target the player already stands at, not where the listener was.
        if reportsPosition, let position = pendingSeekTarget() ?? heardPosition { onEvent(.heard(positionFrame: position)) }
    }

    private func frames(milliseconds: Int) -> Int { max(1, sampleRate * milliseconds / 1000) }

    static func describe(_ error: DecoderError) -> String {
        switch error.kind {
        case .missing: return "The recording is missing from the box (\(error.path))."
        case .unreadable: return "The recording cannot be read (\(error.detail))."
        case .empty: return "The recording is an empty file."
        case .notMP3: return "The file is not a recording the box can play."
        case .corrupt: return "The recording is damaged (\(error.detail))."
        case .library: return "The decoder failed (\(error.detail))."
        }
    }
}
