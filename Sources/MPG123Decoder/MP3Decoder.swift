internal import CMPG123
import Glibc
import SystemCalls

/// Decodes one MP3 file into interleaved stereo signed 16-bit frames at the file's own sample rate.
///
/// Positions are in sample frames (one frame = one sample per channel), exact when the file carries a
/// LAME/Xing header or after `scanLength()`. Gapless decoding is on, fuzzy seeking off, so a seek lands
/// on the exact frame a checkpoint recorded.
public final class MP3Decoder {
    /// The output is always stereo (mono files are duplicated to both channels).
    public static let channels = 2
    /// The sample rates accepted; ALSA is opened at the file's own rate.
    public static let supportedRates = [48_000, 44_100, 32_000, 24_000, 22_050, 16_000]

    public let path: String
    /// Frames per second of the decoded output.
    public let sampleRate: Int
    private let handle: OpaquePointer

    /// Opens `path` and reads enough to learn its format.
    public init(path: String) throws(DecoderError) {
        self.path = path
        try Self.checkFile(path)
        var code: Int32 = 0
        guard let made = mpg123_new(nil, &code) else {
            throw DecoderError(.library, path: path, detail: "mpg123_new failed (\(code))")
        }
        handle = made
        // The two flags that matter: quiet (we log ourselves) and gapless (exact lengths and positions).
        let flags = Int(MPG123_QUIET.rawValue | MPG123_GAPLESS.rawValue | MPG123_FORCE_STEREO.rawValue)
        _ = mpg123_param2(handle, Int32(MPG123_FLAGS.rawValue), flags, 0)
        // Junk before the first frame is skipped up to this many bytes; beyond that the file is not MP3.
        _ = mpg123_param2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), 64 * 1024, 0)
        mpg123_format_none(handle)
        for rate in Self.supportedRates {
            mpg123_format(handle, rate, Int32(MPG123_STEREO.rawValue), Int32(MPG123_ENC_SIGNED_16.rawValue))
        }
        guard mpg123_open(handle, path) == MPG123_OK.rawValue else {
            let message = Self.message(handle)
            mpg123_delete(handle)
            throw DecoderError(.unreadable, path: path, detail: message)
        }
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        guard mpg123_getformat(handle, &rate, &channels, &encoding) == MPG123_OK.rawValue else {
            let message = Self.message(handle)
            mpg123_close(handle)
            mpg123_delete(handle)
            throw DecoderError(.notMP3, path: path, detail: message)
        }
        sampleRate = rate
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    /// Reads the whole file once to learn its exact length in frames (and build the seek index).
    /// Callers cache the answer keyed by path, size and mtime: it reads every byte.
    public func scanLength() throws(DecoderError) -> Int64 {
        guard mpg123_scan(handle) == MPG123_OK.rawValue else {
            throw DecoderError(.corrupt, path: path, detail: Self.message(handle))
        }
        let length = Int64(mpg123_length(handle))
        guard length > 0 else { throw DecoderError(.corrupt, path: path, detail: "no decodable frames") }
        return length
    }

    /// The length the file's header claims, or an estimate from its size; exact after `scanLength()`.
    public var reportedLength: Int64? {
        let length = Int64(mpg123_length(handle))
        return length > 0 ? length : nil
    }

    /// The frame the next `read` starts at.
    public var position: Int64 { Int64(mpg123_tell(handle)) }

    /// Moves to `frame` (clamped to the start); returns where decoding will resume.
    @discardableResult
    public func seek(toFrame frame: Int64) throws(DecoderError) -> Int64 {
        // mpg123 lands on the sample asked for, but the first few hundred samples decoded after a seek into
        // the middle of a layer III frame can differ from a decode from the start (up to 741 samples, by as
        // much as 9,519, on the sweep fixture: MP3SeekContentTests). So land two MP3 frames early and
        // decode up to the sample asked for: from there the output is the same as from the start.
        let target = max(0, frame)
        let early = max(0, target - Self.seekPreroll)
        let landed = mpg123_seek(handle, off_t(early), SEEK_SET)
        guard landed >= 0 else { throw DecoderError(.corrupt, path: path, detail: Self.message(handle)) }
        var position = Int64(landed)
        var scratch = [Int16](repeating: 0, count: 4096 * Self.channels)
        var idle = 0
        while position < target {
            let wanted = Int(min(Int64(4096), target - position))
            var done = 0
            let code = scratch.withUnsafeMutableBytes {
                mpg123_read(handle, $0.baseAddress, wanted * MemoryLayout<Int16>.size * Self.channels, &done)
            }
            let frames = done / (MemoryLayout<Int16>.size * Self.channels)
            if code == MPG123_DONE.rawValue || (code != MPG123_OK.rawValue && code != MPG123_NEW_FORMAT.rawValue) {
                if code == MPG123_DONE.rawValue { break }
                throw DecoderError(.corrupt, path: path, detail: Self.message(handle))
            }
            position += Int64(frames)
            idle = frames == 0 ? idle + 1 : 0
            guard idle < 64 else { throw DecoderError(.corrupt, path: path, detail: "no samples decoded while seeking") }
        }
        return position
    }

    /// How far before a seek's target decoding starts (two layer III frames).
    static let seekPreroll: Int64 = 2 * 1152

    /// The outcome of one read.
    public enum ReadResult: Equatable {
        /// `frames` frames were written to the front of the buffer.
        case frames(Int)
        /// The end of the recording: nothing more will come.
        case end
    }

    /// Decodes into `buffer` (interleaved stereo Int16). Fills as much as the decoder has ready, at
    /// least one frame unless the file has ended.
    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> ReadResult {
        var done = 0
        let bytes = buffer.count * MemoryLayout<Int16>.size
        let code = mpg123_read(handle, UnsafeMutableRawPointer(buffer.baseAddress), bytes, &done)
        let frames = done / (MemoryLayout<Int16>.size * Self.channels)
        switch code {
        case MPG123_OK.rawValue:
            return .frames(frames)
        case MPG123_DONE.rawValue:
            return frames > 0 ? .frames(frames) : .end
        case MPG123_NEW_FORMAT.rawValue:
            // The format is fixed by the forced output settings, so a "new format" is only the first
            // notice; frames may still be zero, which the caller treats as "read again".
            return .frames(frames)
        default:
            throw DecoderError(.corrupt, path: path, detail: Self.message(handle))
        }
    }

    /// The libmpg123 API version this was built against (1.31 has no run-time version call).
    public static var libraryVersion: String { "API \(MPG123_API_VERSION)" }

    private static func message(_ handle: OpaquePointer) -> String {
        guard let text = mpg123_strerror(handle) else { return "unknown mpg123 error" }
        return String(cString: text)
    }

    /// Distinguishes a missing, unreadable or empty file before the decoder sees it.
    private static func checkFile(_ path: String) throws(DecoderError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let error = SystemError("stat", path: path)
            throw DecoderError(error.errno == ENOENT ? .missing : .unreadable, path: path, detail: error.reason)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw DecoderError(.unreadable, path: path, detail: "not a regular file")
        }
        guard info.st_size > 0 else { throw DecoderError(.empty, path: path, detail: "the file is empty") }
        guard access(path, R_OK) == 0 else {
            throw DecoderError(.unreadable, path: path, detail: SystemError("access", path: path).reason)
        }
    }
}
