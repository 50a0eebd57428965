import DeviceFakes
import Devices
import EventLoop
import MPG123Decoder
import StillroomCore
@testable import StillroomDaemon
import TestSupport
import Testing

/// A playback engine and a player machine wired the way the daemon wires them: on a virtual loop (the
/// paced speaker on the box's own time, so nothing measured depends on how busy the machine is), or on a
/// real loop for a real ALSA device.
final class EngineHarness {
    let loop: EventLoop
    let virtual: VirtualLoop?
    let engine: PlaybackEngine
    var player = PlayerMachine()
    var events: [PlayerEvent] = []
    var heard: [Range<Int64>] = []
    var checkpoints: [PlaybackPosition] = []
    let path: String

    init(sink: AudioSink, loop: EventLoop, path: String, virtual: VirtualLoop? = nil) {
        self.loop = loop
        self.virtual = virtual
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

    /// Runs the loop until `done`, failing the test instead of hanging when it never comes: on virtual
    /// time within an hour of it, on a real loop when nothing at all happens for 30 s (guards, not timings).
    func run(until done: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let virtual {
            if try !virtual.advance(until: done, within: .seconds(3600)) {
                Issue.record("what the test waited for never came within an hour of the box's time", sourceLocation: sourceLocation)
            }
            return
        }
        while !done() {
            if try loop.runOnce(timeout: .seconds(30)) == 0 {
                Issue.record("the loop stood still for 30 s before what the test waited for came", sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// Runs the loop until the listener has heard `frame`.
    func run(untilHeard frame: Int64, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try run(until: { (engine.heardPosition ?? 0) >= frame || player.phase != .playing }, sourceLocation: sourceLocation)
    }

    /// Total frames in the heard ranges.
    var heardFrames: Int64 { heard.reduce(0) { $0 + Int64($1.count) } }
}
