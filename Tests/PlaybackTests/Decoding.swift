import MPG123Decoder

/// All the frames of a recording as the decoder gives them (interleaved stereo).
func decodeAll(_ path: String) throws -> [Int16] {
    let decoder = try MP3Decoder(path: path)
    var all: [Int16] = []
    var buffer = [Int16](repeating: 0, count: 8192 * 2)
    while case .frames(let count) = try buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }) {
        all.append(contentsOf: buffer[..<(count * 2)])
    }
    return all
}
