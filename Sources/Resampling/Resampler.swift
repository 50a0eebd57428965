internal import CSampleRate

/// Band-limited sample-rate conversion (libsamplerate), for speech made at 22,050 Hz played at the
/// recording's rate.
public enum Resampler {
    /// `mono` at `from` Hz, converted to `to` Hz.
    public static func convert(_ mono: [Int16], from: Int, to: Int) throws(ResamplingError) -> [Int16] {
        guard from != to, !mono.isEmpty else { return mono }
        var input = [Float](repeating: 0, count: mono.count)
        mono.withUnsafeBufferPointer { src_short_to_float_array($0.baseAddress, &input, Int32(mono.count)) }
        let ratio = Double(to) / Double(from)
        let capacity = Int((Double(mono.count) * ratio).rounded(.up)) + 16
        var output = [Float](repeating: 0, count: capacity)
        var generated = 0
        let code: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                var data = SRC_DATA()
                data.data_in = UnsafePointer(inputBuffer.baseAddress)
                data.input_frames = Int(mono.count)
                data.data_out = outputBuffer.baseAddress
                data.output_frames = capacity
                data.src_ratio = ratio
                // The fastest of the band-limited converters: its passband ends at 80% of the input's
                // Nyquist (8.8 kHz for eSpeak's 22,050 Hz), above where speech carries its sense, and
                // it does half the medium converter's work (bench/speech/run): speech's resampling was
                // two fifths of all a year's work in lifesim, and a Pi Zero pays the same share.
                let result = src_simple(&data, Int32(SRC_SINC_FASTEST), 1)
                generated = Int(data.output_frames_gen)
                return result
            }
        }
        guard code == 0 else { throw ResamplingError(String(cString: src_strerror(code))) }
        var result = [Int16](repeating: 0, count: generated)
        output.withUnsafeBufferPointer { src_float_to_short_array($0.baseAddress, &result, Int32(generated)) }
        return result
    }
}

public struct ResamplingError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "resampling: \(message)" }
}
