import Devices
import EventLoop
import StillroomCore

/// Input from a script instead of hardware: tests press buttons by calling methods, the simulator and
/// scenario runs replay a timed script on the loop. Events are exactly what a hardware backend would
/// produce (a press is `.pressed` then `.released`, a hold adds `.longPress`), so the mapping and the
/// screens cannot tell the difference.
public final class ScriptedInput: InputBackend {
    public let name = "scripted"
    public var onNotice: ((InputNotice) -> Void)?

    /// One step of a script: wait `delay` after the previous step, then deliver `events`.
    public struct Step: Equatable, Sendable {
        public var delay: Duration
        public var events: [InputEvent]

        public init(after delay: Duration = .zero, _ events: [InputEvent]) {
            self.delay = delay
            self.events = events
        }
    }

    private let loop: EventLoop?
    private var handler: ((InputEvent) -> Void)?
    private var timer: LoopTimer?
    private var pending: [Step] = []
    private var timeline = DetentTimeline()
    /// Every event delivered so far, for assertions.
    public private(set) var delivered: [InputEvent] = []
    /// The jack state sent at start (nil: none, as for a board with no headphone detection).
    public var jackAtStart: Bool?

    /// `loop` is needed only to replay timed scripts and to stamp turns with the loop's time.
    public init(loop: EventLoop? = nil, jackAtStart: Bool? = true) {
        self.loop = loop
        self.jackAtStart = jackAtStart
    }

    public func start(_ handler: @escaping (InputEvent) -> Void) throws(InputError) {
        self.handler = handler
        if let jackAtStart { send(.jack(connected: jackAtStart)) }
    }

    public func stop() {
        handler = nil
        timer?.cancel()
        timer = nil
        pending = []
    }

    /// Delivers `event` now (dropped when not started, as hardware would be unread).
    public func send(_ event: InputEvent) {
        guard let handler else { return }
        delivered.append(event)
        handler(event)
    }

    /// A short press and release.
    public func press(_ control: Control) {
        send(.button(control, .pressed))
        send(.button(control, .released(long: false)))
    }

    /// A press held past the long-press time, then released.
    public func hold(_ control: Control) {
        send(.button(control, .pressed))
        send(.button(control, .longPress))
        send(.button(control, .released(long: true)))
    }

    /// `detents` turns (positive clockwise), `spacing` apart from `at` (default: the loop's now, or zero).
    public func turn(_ detents: Int, at start: MonotonicInstant? = nil, spacing: Duration = .milliseconds(150)) {
        let origin = start ?? loop?.now ?? .zero
        for index in 0..<abs(detents) {
            send(.turn(timeline.detent(direction: detents > 0 ? 1 : -1, at: origin + spacing * index)))
        }
    }

    /// Headphones in (true) or out (false).
    public func plug(_ connected: Bool) { send(.jack(connected: connected)) }

    /// Replays `steps` on the loop, each `delay` after the one before. Needs a loop and a started source.
    public func play(_ steps: [Step]) {
        guard let loop else { preconditionFailure("ScriptedInput.play needs a loop") }
        pending += steps
        if timer == nil { timer = loop.makeTimer { [unowned self] in stepDue() } }
        if let first = pending.first, timer?.isScheduled == false { timer?.schedule(after: first.delay) }
    }

    private func stepDue() {
        guard !pending.isEmpty else { return }
        let step = pending.removeFirst()
        for event in step.events {
            if case .turn(let detent) = event, let loop {
                // Stamp turns with the time they are delivered, so acceleration sees the script's pace.
                send(.turn(timeline.detent(direction: detent.direction, at: loop.now)))
            } else {
                send(event)
            }
        }
        if let next = pending.first { timer?.schedule(after: next.delay) }
    }
}

extension ScriptedInput {
    /// Why a script was refused: `script:3: unknown step "prss play"`.
    public struct ScriptError: Error, Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String

        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }

        public var description: String { "script:\(line): \(message)" }
    }

    /// Reads a script, one step a line; `#` starts a comment:
    ///
    ///     wait 500ms          # waits before the next step (ms or s)
    ///     press play          # play, back or knob: a short press
    ///     hold back           # a long press
    ///     turn +3             # three detents clockwise (-2: two counter-clockwise), 150 ms apart
    ///     turn +4 fast        # 30 ms apart: the knob's acceleration
    ///     jack out            # or: jack in
    ///     quit
    public static func parse(_ text: String) throws(ScriptError) -> [Step] {
        var steps: [Step] = []
        var wait = Duration.zero
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let words = raw.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let verb = words.first else { continue }
            func control(_ word: String?) throws(ScriptError) -> Control {
                guard let word, let control = Control(rawValue: word) else {
                    throw ScriptError(line: line, message: "expected play, back or knob after \"\(verb)\"")
                }
                return control
            }
            func expectCount(_ count: Int) throws(ScriptError) {
                guard words.count == count else {
                    throw ScriptError(line: line, message: "\"\(verb)\" takes \(count - 1) word\(count == 2 ? "" : "s")")
                }
            }
            switch verb {
            case "wait":
                try expectCount(2)
                guard let duration = parseDuration(words[1]) else {
                    throw ScriptError(line: line, message: "expected a duration like 500ms or 2s after \"wait\"")
                }
                wait += duration
            case "press":
                try expectCount(2)
                let control = try control(words[1])
                steps.append(Step(after: wait, [.button(control, .pressed), .button(control, .released(long: false))]))
                wait = .zero
            case "hold":
                try expectCount(2)
                let control = try control(words[1])
                steps.append(Step(after: wait, [.button(control, .pressed), .button(control, .longPress),
                                                .button(control, .released(long: true))]))
                wait = .zero
            case "turn":
                guard words.count == 2 || (words.count == 3 && words[2] == "fast"),
                      let count = Int(words[1].hasPrefix("+") ? String(words[1].dropFirst()) : words[1]), count != 0 else {
                    throw ScriptError(line: line, message: "expected \"turn +N\" or \"turn -N\" (optionally \"fast\")")
                }
                let spacing: Duration = words.count == 3 ? .milliseconds(30) : .milliseconds(150)
                for detent in 0..<abs(count) {
                    let event = InputEvent.turn(.init(direction: count > 0 ? 1 : -1, at: .zero))
                    steps.append(Step(after: detent == 0 ? wait : spacing, [event]))
                }
                wait = .zero
            case "jack":
                try expectCount(2)
                guard words[1] == "in" || words[1] == "out" else {
                    throw ScriptError(line: line, message: "expected \"jack in\" or \"jack out\"")
                }
                steps.append(Step(after: wait, [.jack(connected: words[1] == "in")]))
                wait = .zero
            case "quit":
                try expectCount(1)
                steps.append(Step(after: wait, [.quit]))
                wait = .zero
            default:
                throw ScriptError(line: line, message: "unknown step \"\(verb)\" (wait, press, hold, turn, jack, quit)")
            }
        }
        return steps
    }

    static func parseDuration(_ text: String) -> Duration? {
        if text.hasSuffix("ms"), let value = Int(text.dropLast(2)), value >= 0 { return .milliseconds(value) }
        if text.hasSuffix("s"), let value = Int(text.dropLast()), value >= 0 { return .seconds(value) }
        return nil
    }
}
