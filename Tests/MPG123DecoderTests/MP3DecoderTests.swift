import MPG123Decoder
import TestSupport
import Testing

@Suite struct MP3DecoderTests {
    let mono44 = RepositoryPaths.fixture("audio/tone-2s-44k-mono.mp3")
    let stereo48 = RepositoryPaths.fixture("audio/tone-1.5s-48k-stereo.mp3")

    @Test func measuresExactLengthsAtTheFilesOwnRate() throws {
        let mono = try MP3Decoder(path: mono44)
        #expect(mono.sampleRate == 44_100)
        #expect(try mono.scanLength() == 88_200)
        let stereo = try MP3Decoder(path: stereo48)
        #expect(stereo.sampleRate == 48_000)
        #expect(try stereo.scanLength() == 72_000)
    }

    @Test func decodesEveryFrameAsStereo() throws {
        let decoder = try MP3Decoder(path: mono44)
        var buffer = [Int16](repeating: 0, count: 4096 * 2)
        var total = 0
        var peak: Int16 = 0
        var sidesDiffer = false
        loop: while true {
            let result = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            switch result {
            case .frames(let count):
                for frame in 0..<count {
                    peak = max(peak, abs(buffer[frame * 2]))
                    if buffer[frame * 2] != buffer[frame * 2 + 1] { sidesDiffer = true }
                }
                total += count
            case .end:
                break loop
            }
        }
        #expect(total == 88_200)
        #expect(peak > 8000) // the tone is at 0.3 of full scale: about 9,800
        #expect(!sidesDiffer) // mono duplicated to both channels
    }

    @Test func seeksToTheExactFrame() throws {
        let decoder = try MP3Decoder(path: mono44)
        _ = try decoder.scanLength()
        #expect(try decoder.seek(toFrame: 44_100) == 44_100)
        #expect(decoder.position == 44_100)
        var buffer = [Int16](repeating: 0, count: 100_000 * 2)
        var rest = 0
        while case .frames(let count) = try buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }) {
            rest += count
        }
        #expect(rest == 44_100)
    }

    @Test func aMissingFileIsReportedAsMissing() {
        #expect(throws: DecoderError.self) { try MP3Decoder(path: "/nonexistent/stillroom.mp3") }
        do {
            _ = try MP3Decoder(path: "/nonexistent/stillroom.mp3")
        } catch {
            #expect(error.kind == .missing)
        }
    }

    @Test func damagedFilesEndInAClearError() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let original = Files.read(mono44)
        Files.write([], to: directory.file("empty.mp3"))
        Files.write("This is a text file, not a recording.\n", to: directory.file("text.mp3"))
        var noise = [UInt8](repeating: 0, count: 200_000)
        var state: UInt32 = 12345
        for index in noise.indices { // a fixed-seed LCG: junk with no MPEG frame sync in it, repeatable
            state = state &* 1_103_515_245 &+ 12345
            noise[index] = UInt8(truncatingIfNeeded: state >> 16) & 0x7f
        }
        Files.write(noise, to: directory.file("noise.mp3"))

        func kind(_ name: String) -> DecoderError.Kind? {
            do {
                let decoder = try MP3Decoder(path: directory.file(name))
                _ = try decoder.scanLength()
                return nil
            } catch {
                return error.kind
            }
        }
        #expect(kind("empty.mp3") == .empty)
        #expect(kind("text.mp3") == .notMP3)
        #expect(kind("noise.mp3") == .notMP3)

        // A truncated file still decodes what is there: shorter, never a hang or a crash.
        Files.write(Array(original.prefix(original.count / 2)), to: directory.file("half.mp3"))
        let half = try MP3Decoder(path: directory.file("half.mp3"))
        let length = try half.scanLength()
        #expect(length > 30_000 && length < 60_000)

        // A directory is not a recording.
        #expect(kind("") == .unreadable)
    }
}

@Suite struct MP3SeekContentTests {
    let mono44 = RepositoryPaths.fixture("audio/tone-2s-44k-mono.mp3")

    func read(_ decoder: MP3Decoder, frames: Int) throws -> [Int16] {
        var out: [Int16] = []
        var buffer = [Int16](repeating: 0, count: frames * 2)
        while out.count < frames * 2 {
            guard case .frames(let count) = try buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }) else { break }
            out.append(contentsOf: buffer[..<(count * 2)])
        }
        return Array(out.prefix(frames * 2))
    }

    @Test func aSeekLandsOnTheSameSamplesAsDecodingFromTheStart() throws {
        let whole = try MP3Decoder(path: mono44)
        let all = try read(whole, frames: 88_200)
        for target in [55_125, 1_000, 44_100, 87_000, 0] {
            let decoder = try MP3Decoder(path: mono44)
            _ = try decoder.scanLength()
            _ = try read(decoder, frames: 12_000) // read a while first, as playback does
            try decoder.seek(toFrame: Int64(target))
            let got = try read(decoder, frames: 1000)
            let want = Array(all[(target * 2)..<min(all.count, (target + 1000) * 2)])
            let largest = zip(got, want).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(got.count == want.count && largest <= 2, "seek to \(target): largest difference \(largest)")
        }
    }

    /// The sweep (a signal that changes every sample) at the places the playback engine seeks to when it
    /// takes back its buffer for a label or a tick: without decoding in advance, up to 741 samples after
    /// the seek differed from a decode from the start, by as much as 9,519.
    @Test func theSweepSeeksExactlyMidStream() throws {
        let sweep = RepositoryPaths.fixture("audio/sweep-20s-44k-mono.mp3")
        let all = try read(try MP3Decoder(path: sweep), frames: 100_000)
        for target in [44_517, 45_127, 45_397, 2_000, 0] {
            let decoder = try MP3Decoder(path: sweep)
            _ = try decoder.scanLength()
            _ = try read(decoder, frames: 60_000)
            #expect(try decoder.seek(toFrame: Int64(target)) == Int64(target))
            let got = try read(decoder, frames: 3000)
            let want = Array(all[(target * 2)..<((target + 3000) * 2)])
            let largest = zip(got, want).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(got.count == want.count && largest <= 2, "seek to \(target): largest difference \(largest)")
        }
    }
}

