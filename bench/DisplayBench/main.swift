// display-bench: timings of the display stack, sample screens, and DRM resource capture.
//
//   display-bench render [--iterations N]        render times of the daemon's player (full frame, breathing frame)
//   display-bench cpu [--seconds S] [--audio F] [--size WxH] [--fps N] [--appearance day|night|both]
//                                                CPU of fake-sink audio alone vs with the animating player
//   display-bench breakdown                      the breathing circle's repaint cost, part by part
//   display-bench samples DIR                    every sample screen as the daemon draws it, as PNG
//   display-bench describe-drm [DIR]             this machine's DRM cards as JSON (test fixtures)
//
// Build in release: swift build -c release --product display-bench. Figures go to docs/performance.md.
import CairoPainter
import DRMDisplay
import SimulatorDevices
import Devices
import DisplayPipeline
import EventLoop
import FoundationEssentials
import Glibc
import MPG123Decoder
import StillroomCore

/// This thread's CPU time: per-frame costs are measured in it, so time spent descheduled on a shared,
/// busy machine does not count (cache effects still do).
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// CPU seconds (user + system) this process has used.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Writes a line to `fd` at once (unbuffered: a long run shows progress as it goes).
func say(_ text: String, fd: Int32 = 1) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = Glibc.write(fd, bytes.baseAddress, bytes.count) }
}

func format(_ value: Double, _ digits: Int = 3) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return "\(rounded)"
}

struct Stats {
    let median: Double
    let p95: Double
    let mean: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        median = sorted[sorted.count / 2]
        p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
        mean = samples.reduce(0, +) / Double(samples.count)
    }

    var text: String { "median \(format(median)) ms, p95 \(format(p95)) ms, mean \(format(mean)) ms" }
}

func option(_ name: String, default value: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return value }
    return arguments[index + 1]
}

let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3) // bench/DisplayBench/main.swift
    return parts.joined(separator: "/")
}()

/// The daemon's player as the interface draws it (the sample session inside its guided breathing), in
/// `appearance`: the scene builder, the sample state, and a scene at a given moment.
struct DaemonPlayer {
    let builder: InterfaceScene
    let state: InterfaceSamples.State
    let size: PixelSize

    init(painter: ScenePainter, size: PixelSize, appearance: Appearance = .day) {
        builder = InterfaceScene(measurer: painter.textMeasurer)
        guard let state = InterfaceSamples.states(appearance: appearance, textSize: .regular).first(where: { $0.name == "player" }) else {
            fatalError("no player sample")
        }
        self.state = state
        self.size = size
    }

    var start: MonotonicInstant { state.now }

    func scene(at now: MonotonicInstant) -> Scene {
        builder.scene(state.interface, model: state.model, size: size, now: now)
    }
}

// MARK: render

func benchRender() throws {
    let iterations = Int(option("--iterations", default: "300"))!
    say("render: the daemon's player, \(iterations) iterations each, thread CPU time per frame")
    for size in [PixelSize(width: 800, height: 480), PixelSize(width: 480, height: 320)] {
        for appearance in Appearance.allCases {
            let painter = try ScenePainter(size: size)
            let player = DaemonPlayer(painter: painter, size: size, appearance: appearance)
            let start = player.start

            // Full player frame: everything repainted, layouts warm (the steady case after the first).
            let scene = player.scene(at: start)
            let coldStart = monotonicNanoseconds()
            painter.render(scene)
            let cold = Double(monotonicNanoseconds() - coldStart) / 1e6
            var full: [Double] = []
            for _ in 0..<iterations {
                let t0 = monotonicNanoseconds()
                painter.paint(scene, damage: [PixelRect(size: size)])
                full.append(Double(monotonicNanoseconds() - t0) / 1e6)
            }

            // Breathing frames: 30 fps steps through the breath (holds and sub-pixel steps draw nothing),
            // each one built, diffed and painted where it changed.
            var breathing: [Double] = []
            var building: [Double] = []
            var area = 0
            var frames = 0
            var now = start
            var lastDamage: [PixelRect] = []
            while breathing.count < iterations {
                now = now + .nanoseconds(33_333_334)
                let t0 = monotonicNanoseconds()
                let next = player.scene(at: now)
                let t1 = monotonicNanoseconds()
                let damage = painter.render(next)
                let t2 = monotonicNanoseconds()
                frames += 1
                guard !damage.isEmpty else { continue }
                area += damage.reduce(0) { $0 + $1.area }
                lastDamage = damage
                building.append(Double(t1 - t0) / 1e6)
                breathing.append(Double(t2 - t1) / 1e6)
            }
            // Copying a breathing frame's damage into a scan-out buffer (RAM here; a dumb buffer on a Pi).
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size.area * 4, alignment: 64)
            defer { buffer.deallocate() }
            var copies: [Double] = []
            for _ in 0..<iterations {
                let t0 = monotonicNanoseconds()
                for rect in lastDamage { RotatedCopy.copy(rect, of: painter.frame, rotation: .none, to: buffer, pitch: size.width * 4) }
                copies.append(Double(monotonicNanoseconds() - t0) / 1e6)
            }
            say("  \(size) \(appearance)")
            say("    full player frame (first, layouts made): \(format(cold)) ms")
            say("    full player frame (repaint):             \(Stats(full).text)")
            say("    breathing frame (diff + paint):          \(Stats(breathing).text); "
                  + "\(area / breathing.count) px repainted on average; \(frames - breathing.count) of \(frames) frames drew nothing")
            say("    breathing scene build:                   \(Stats(building).text)")
            say("    breathing damage copy to a buffer:       \(Stats(copies).text)")
        }
    }
}

// MARK: cpu

/// Decodes an MP3 in a loop into a paced sink: the audio path without a sound card.
final class AudioPump: AudioSinkDelegate {
    let sink: PacedSink
    let path: String
    var decoder: MP3Decoder
    var buffer = [Int16](repeating: 0, count: 4096 * 2)
    var pending = 0
    var framesPlayed: Int64 = 0

    init(loop: EventLoop, path: String) throws {
        self.path = path
        decoder = try MP3Decoder(path: path)
        sink = PacedSink(loop: loop)
        sink.delegate = self
        try sink.open(format: AudioFormat(sampleRate: decoder.sampleRate))
        audioSinkWantsFrames(sink)
    }

    func audioSinkWantsFrames(_ sink: AudioSink) {
        while true {
            if pending == 0 {
                let result = try! buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
                switch result {
                case .frames(let count): pending = count
                case .end:
                    _ = try! decoder.seek(toFrame: 0)
                    continue
                }
            }
            let accepted = try! buffer.withUnsafeBufferPointer { try sink.write(UnsafeBufferPointer(rebasing: $0[..<(pending * 2)])) }
            if accepted < pending {
                // Keep what was not taken at the front for next time.
                buffer.withUnsafeMutableBufferPointer { pointer in
                    let base = pointer.baseAddress!
                    base.update(from: base + accepted * 2, count: (pending - accepted) * 2)
                }
                pending -= accepted
                return
            }
            pending = 0
        }
    }

    func audioSinkDrained(_ sink: AudioSink) {}
    func audioSink(_ sink: AudioSink, failed error: AudioSinkError) { fatalError("\(error)") }
}

func runLoop(_ loop: EventLoop, for seconds: Double) throws {
    let deadline = loop.now + .milliseconds(Int64(seconds * 1000))
    let stopper = loop.makeTimer { loop.stop() }
    stopper.schedule(at: deadline)
    try loop.run()
}

func benchCPU() throws {
    let seconds = Double(option("--seconds", default: "60"))!
    let audio = option("--audio", default: repositoryRoot + "/Tests/Fixtures/audio/tone-1.5s-48k-stereo.mp3")
    let sizeText = option("--size", default: "800x480")
    let size = PixelSize(parsing: sizeText)!
    say("cpu: \(format(seconds, 0)) s per run, audio \(audio), screen \(size)")

    // Audio alone.
    do {
        let loop = try EventLoop()
        let pump = try AudioPump(loop: loop, path: audio)
        let before = cpuSeconds()
        try runLoop(loop, for: seconds)
        let used = cpuSeconds() - before
        say("  audio only:               \(format(used)) s CPU = \(format(100 * used / seconds, 2)) % of a core; "
              + "\(pump.sink.playedFrames) frames played; \(loop.iterations) loop iterations")
        audioOnly = used
    }
    // Audio and the animating player on an offscreen display (no PNG), at the frame cap.
    let fps = Int(option("--fps", default: "30"))!
    let appearances = option("--appearance", default: "both") == "both" ? Appearance.allCases
        : [Appearance(rawValue: option("--appearance", default: "day"))!]
    for appearance in appearances {
        let loop = try EventLoop()
        let pump = try AudioPump(loop: loop, path: audio)
        let display = OffscreenDisplay(size: size)
        let painter = try ScenePainter(size: size)
        let player = DaemonPlayer(painter: painter, size: size, appearance: appearance)
        // The sample's clock and the loop's differ: the player's moment is the sample's start plus the
        // loop's time since this run began.
        let loopStart = loop.now
        // --still: the scene says it animates but never changes (the cost of waking up to find nothing to draw).
        let still = CommandLine.arguments.contains("--still")
        // --no-hint: scenes do not say when they next change (a frame is built at every interval).
        let hinted = !CommandLine.arguments.contains("--no-hint")
        let driver = ScreenDriver(loop: loop, display: display, painter: painter, maximumFramesPerSecond: fps) { now in
            let moment = still ? player.start : player.start + (now - loopStart)
            var scene = player.scene(at: moment)
            // The scene's next change is on the sample's clock; the driver wants the loop's.
            scene.nextChange = hinted && !still ? scene.nextChange.map { now + ($0 - moment) } : nil
            if still { scene.isAnimating = true }
            return scene
        }
        let before = cpuSeconds()
        try runLoop(loop, for: seconds)
        let used = cpuSeconds() - before
        say("  audio + animating player (\(appearance), cap \(fps) fps): \(format(used)) s CPU = \(format(100 * used / seconds, 2)) % of a core; "
              + "\(driver.framesBuilt) scenes built, \(driver.framesPresented) presented "
              + "(\(format(Double(driver.framesPresented) / seconds, 1)) fps); \(pump.sink.playedFrames) audio frames; "
              + "ratio \(format(used / audioOnly, 2))×")
        driver.close()
    }
}

nonisolated(unsafe) var audioOnly = 0.0

// MARK: samples and capture

func writeSamples(to folder: String) throws {
    // Every screen and variant the interface samples hold, as the daemon draws them, in both looks.
    for size in [PixelSize(width: 800, height: 480), PixelSize(width: 480, height: 320)] {
        for appearance in Appearance.allCases {
            let painter = try ScenePainter(size: size)
            let builder = InterfaceScene(measurer: painter.textMeasurer)
            for state in InterfaceSamples.states(appearance: appearance, textSize: .regular) {
                painter.render(builder.scene(state.interface, model: state.model, size: size, now: state.now))
                let path = "\(folder)/\(state.name)-\(size)-\(appearance).png"
                try PNGImage.write(painter.frame, to: path)
                say(path)
            }
        }
    }
}

func describeDRM(in folder: String) throws {
    let (cards, problems) = DRMDisplay.describeCards(in: folder)
    for problem in problems { say("describe-drm: \(problem)", fd: 2) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    say(String(decoding: try encoder.encode(cards), as: UTF8.self))
}

let command = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "render"
switch command {
case "render": try benchRender()
case "breakdown": try breakdown()
case "cpu": try benchCPU()
case "samples": try writeSamples(to: CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "/tmp")
case "describe-drm": try describeDRM(in: CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "/dev/dri")
default:
    say("usage: display-bench render|cpu|breakdown|samples DIR|describe-drm [DIR]", fd: 2)
    exit(2)
}

/// What each part of the breathing circle costs to repaint in the damage the daemon's player frame makes
/// (800×480, day): every 1/30 s step of the sample session's breath that changes something, with only
/// the named nodes drawn over the background. Thread CPU time.
func breakdown() throws {
    let size = PixelSize(width: 800, height: 480)
    let sets: [(String, Set<String>)] = [
        ("background only", []),
        ("halo", ["breath.halo"]),
        ("body and edge", ["breath.body"]),
        ("guide", ["breath.guide"]),
        ("phase label", ["breath.phase"]),
        ("all circle", ["breath.halo", "breath.body", "breath.guide", "breath.phase"]),
    ]
    for (name, keep) in sets {
        let painter = try ScenePainter(size: size)
        let player = DaemonPlayer(painter: painter, size: size)
        var now = player.start
        var last = player.scene(at: now)
        var samples: [Double] = []
        while samples.count < 300 {
            now = now + .nanoseconds(33_333_334)
            var scene = player.scene(at: now)
            let damage = SceneDiff.damage(from: last, to: scene)
            last = scene
            guard !damage.isEmpty else { continue }
            scene.nodes = scene.nodes.filter { keep.contains($0.id.rawValue) }
            let t0 = monotonicNanoseconds()
            painter.paint(scene, damage: damage)
            samples.append(Double(monotonicNanoseconds() - t0) / 1e6)
        }
        say("  \(name): \(Stats(samples).text)")
    }
}
