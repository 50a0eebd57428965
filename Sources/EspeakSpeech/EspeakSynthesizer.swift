internal import CEspeak
import Glibc

/// Speech synthesised on the box with eSpeak NG: text in, mono 16-bit samples out.
///
/// eSpeak keeps global state, so there is one synthesiser per process. Synthesis is synchronous and
/// short (a label is a few hundred milliseconds of speech, synthesised in a few milliseconds), so it runs
/// on the loop's thread; the ALSA buffer covers far longer than a label takes to make.
public final class EspeakSynthesizer {
    /// eSpeak's output rate (22,050 Hz for its voices).
    public let sampleRate: Int

    private static let collector = SampleCollector()
    nonisolated(unsafe) private static var instance: EspeakSynthesizer?

    /// The process's synthesiser, started on first use. eSpeak NG's state is global: a second
    /// initialisation would corrupt it. Call from the loop's thread only.
    public static func shared(voice: String = "en-us", wordsPerMinute: Int = 150) throws(SpeechError) -> EspeakSynthesizer {
        lock.lock()
        defer { lock.unlock() }
        if let instance { return instance }
        let made = try EspeakSynthesizer(voice: voice, wordsPerMinute: wordsPerMinute)
        instance = made
        return made
    }

    /// eSpeak's global state admits one caller at a time. The daemon has one thread anyway; tests run
    /// suites in parallel.
    private static let lock = Mutex()

    /// `voice` is an eSpeak voice name ("en-us", "en-gb"); `wordsPerMinute` its speed.
    private init(voice: String, wordsPerMinute: Int) throws(SpeechError) {
        if let failure = stillroom_espeak_load() {
            throw SpeechError("eSpeak NG could not be loaded (\(String(cString: failure))); speech needs Debian's libespeak-ng1 package")
        }
        let rate = stillroom_espeak_initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else { throw SpeechError("eSpeak NG could not start (is espeak-ng-data installed?)") }
        sampleRate = Int(rate)
        stillroom_espeak_set_synth_callback { samples, count, _ in
            if let samples, count > 0 { EspeakSynthesizer.collector.append(samples, count: Int(count)) }
            return 0 // continue
        }
        guard stillroom_espeak_set_voice_by_name(voice) == EE_OK else { throw SpeechError("eSpeak NG has no voice \"\(voice)\"") }
        stillroom_espeak_set_parameter(espeakRATE, Int32(wordsPerMinute), 0)
    }

    /// The samples of `text` spoken (mono, `sampleRate`).
    public func synthesize(_ text: String) throws(SpeechError) -> [Int16] {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        Self.collector.reset()
        let status = text.withCString { pointer in
            stillroom_espeak_synth(pointer, text.utf8.count + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil)
        }
        guard status == EE_OK else { throw SpeechError("eSpeak NG could not speak the text (status \(status.rawValue))") }
        return Self.collector.take()
    }
}

/// A plain pthread mutex around eSpeak's global C state (state no Swift value owns, so not a Mutex<T>).
final class Mutex: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
}

/// Where eSpeak's callback leaves samples (the callback is a C function: it can only reach a global).
final class SampleCollector: @unchecked Sendable {
    // Touched only on the loop's thread, inside espeak_Synth's synchronous callback.
    private var samples: [Int16] = []

    func append(_ pointer: UnsafeMutablePointer<Int16>, count: Int) {
        samples.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count))
    }

    func reset() { samples = [] }

    func take() -> [Int16] {
        defer { samples = [] }
        return samples
    }
}

/// Speech synthesis failed: what and what to do.
public struct SpeechError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
