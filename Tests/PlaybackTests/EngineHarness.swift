import Devices
import EventLoop
import MPG123Decoder
import StillroomCore
@testable import StillroomDaemon
import TestSupport

/// A playback engine and a player machine wired the way the daemon wires them, on a real loop.
final class EngineHarness {
    let loop: EventLoop
    let engine: PlaybackEngine
    var player = PlayerMachine()
    var events: [PlayerEvent] = []
    var heard: [Range<Int64>] = []
    var checkpoints: [PlaybackPosition] = []
    let path: String

    init(sink: AudioSink, loop: EventLoop, path: String) {
        self.loop = loop
        self.path = path
        engine = PlaybackEngine(sink: sink, logger: Logger(threshold: .warning), lengths: { _ in nil }, rememberLength: { _, _ in })
        engine.onEvent = { [unowned self] event in
            if case .heard = event {} else { events.append(event) }
            perform(player.handle(event, now: loop.now))
        }
        engine.onHeard = { [unowned self] ranges in heard += ranges }
    }

    func send(_ event: PlayerEvent) { perform(player.handle(event, now: loop.now)) }

    func perform(_ effects: [PlayerEffect]) {
        for effect in effects {
            switch effect {
            case .load: engine.load(path: path)
            case .startOutput(let frame): engine.start(fromFrame: frame)
            case .pauseOutput: engine.pause()
            case .stopOutput: engine.stop()
            case .seekOutput(let frame): engine.seek(toFrame: frame)
            case .saveCheckpoint(let position): checkpoints.append(position)
            case .clearCheckpoint, .scheduleCheckpoint, .cancelCheckpointTimer: break
            }
        }
    }

    /// Runs the loop until `done`.
    func run(until done: () -> Bool) throws {
        while !done() { try loop.runOnce() }
    }

    /// Runs the loop until the listener has heard `frame`.
    func run(untilHeard frame: Int64) throws {
        try run { (engine.heardPosition ?? 0) >= frame || player.phase != .playing }
    }

    /// Total frames in the heard ranges.
    var heardFrames: Int64 { heard.reduce(0) { $0 + Int64($1.count) } }
}
