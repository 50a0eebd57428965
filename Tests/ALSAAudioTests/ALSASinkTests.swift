import ALSAAudio
import Devices
import EventLoop
import MPG123Decoder
import TestSupport
import Testing

/// Feeds a sink from a decoder until the recording ends, then lets it drain.
final class DecoderFeeder: AudioSinkDelegate {
    let decoder: MP3Decoder
    var buffer = [Int16](repeating: 0, count: 8192 * 2)
    var pending = ArraySlice<Int16>()
    var ended = false
    var drained = false
    var failure: AudioSinkError?
    var wakeUps = 0

    init(decoder: MP3Decoder) { self.decoder = decoder }

    func audioSinkWantsFrames(_ sink: AudioSink) {
        wakeUps += 1
        fill(sink)
    }

    func fill(_ sink: AudioSink) {
        while true {
            if pending.isEmpty {
                if ended { return }
                let result = try! buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
                switch result {
                case .frames(let count): pending = buffer[..<(count * 2)]
                case .end:
                    ended = true
                    sink.finish()
                    return
                }
            }
            let accepted = try! pending.withUnsafeBufferPointer { try sink.write($0) }
            pending = pending.dropFirst(accepted * 2)
            if !pending.isEmpty { return } // the sink is full: wait for the next wake-up
        }
    }

    func audioSinkDrained(_ sink: AudioSink) { drained = true }
    func audioSink(_ sink: AudioSink, failed error: AudioSinkError) { failure = error }
}

/// All the frames of a recording as the decoder gives them.
func decodeAll(_ path: String) throws -> [Int16] {
    let decoder = try MP3Decoder(path: path)
    var all: [Int16] = []
    var buffer = [Int16](repeating: 0, count: 8192 * 2)
    while case .frames(let count) = try buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }) {
        all.append(contentsOf: buffer[..<(count * 2)])
    }
    return all
}

/// Reads a raw S16LE capture written by ALSA's `file` plugin.
func readCapture(_ path: String) -> [Int16] {
    let bytes = Files.read(path)
    return stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
}

@Suite struct ALSASinkTests {
    let fixture = RepositoryPaths.fixture("audio/tone-2s-44k-mono.mp3")

    @Test func playsEveryFrameThroughTheFilePluginExactly() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let capture = directory.file("capture.raw")
        let loop = try EventLoop()
        let sink = ALSASink(device: "file:FILE=\(capture),FORMAT=raw", loop: loop)
        let decoder = try MP3Decoder(path: fixture)
        try sink.open(format: AudioFormat(sampleRate: decoder.sampleRate))
        #expect(sink.pacedByTimer) // the file plugin's slave is `null`, whose descriptor epoll refuses
        let feeder = DecoderFeeder(decoder: decoder)
        sink.delegate = feeder
        feeder.fill(sink)
        while !feeder.drained && feeder.failure == nil { try loop.runOnce() }
        #expect(feeder.failure == nil)
        #expect(sink.playedFrames == 88_200)
        sink.close()
        let expected = try decodeAll(fixture)
        let captured = readCapture(capture)
        #expect(captured.count == expected.count)
        #expect(captured == expected)
    }

    @Test func anUnknownDeviceIsUnavailableWithTheReason() throws {
        let loop = try EventLoop()
        let sink = ALSASink(device: "stillroom_no_such_device", loop: loop)
        #expect(throws: AudioSinkError.self) { try sink.open(format: AudioFormat(sampleRate: 44_100)) }
        do {
            try sink.open(format: AudioFormat(sampleRate: 44_100))
        } catch {
            #expect(error.kind == .unavailable)
            #expect(error.detail.contains("stillroom_no_such_device"))
        }
    }
}

@Suite struct ALSAJackMonitorTests {
    @Test func aMissingCardSaysHowToFindTheRightName() throws {
        let loop = try EventLoop()
        let monitor = ALSAJackMonitor(card: "hw:CARD=NoSuchCard", loop: loop)
        do {
            try monitor.start { _ in }
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("hw:CARD=NoSuchCard"))
            #expect(error.message.contains("aplay -l"))
        }
    }
}
