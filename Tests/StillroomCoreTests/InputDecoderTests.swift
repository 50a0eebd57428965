import StillroomCore
import Testing

/// Drives an `InputDecoder` the way a backend does: raw input at kernel times, the timer at `wakeAt`.
struct DecoderHarness {
    var decoder = InputDecoder()
    var events: [(Int, InputEvent)] = []

    mutating func run(until time: Int) {
        while let wake = decoder.wakeAt, wake <= ms(time) {
            let at = Int(wake.nanoseconds / 1_000_000)
            events += decoder.timerFired(at: wake).map { (at, $0) }
        }
    }

    mutating func feed(at time: Int, _ body: (inout InputDecoder, MonotonicInstant) -> [InputEvent]) {
        events += body(&decoder, ms(time)).map { (time, $0) }
    }

    var described: [String] { events.map { "\($0.0) \($0.1)" } }
}

@Suite struct InputDecoderTests {
    @Test func buttonsDebounceIndependently() {
        var harness = DecoderHarness()
        harness.decoder.addButton(.play, .init())
        harness.decoder.addButton(.back, .init())
        harness.feed(at: 100) { $0.button(.play, pressed: true, at: $1) }
        harness.feed(at: 110) { $0.button(.back, pressed: true, at: $1) }
        harness.feed(at: 150) { $0.button(.play, pressed: false, at: $1) }
        harness.feed(at: 152) { $0.button(.back, pressed: false, at: $1) }
        harness.run(until: 1000)
        #expect(harness.described == ["100 play pressed", "110 back pressed", "170 play released", "172 back released"])
    }

    @Test func anEdgeReadLateCannotBeOvertakenByTheTimer() {
        // BACK released at 100 and pressed again at 125, but the loop only gets to it at 140: the release
        // (due at 120) is fired before the new press is applied, so both presses count, in order.
        var harness = DecoderHarness()
        harness.decoder.addButton(.back, .init())
        harness.feed(at: 50) { $0.button(.back, pressed: true, at: $1) }
        harness.feed(at: 100) { $0.button(.back, pressed: false, at: $1) }
        harness.feed(at: 125) { $0.button(.back, pressed: true, at: $1) }
        harness.feed(at: 126) { $0.button(.back, pressed: false, at: $1) }
        harness.run(until: 1000)
        #expect(harness.described == ["50 back pressed", "125 back released", "125 back pressed", "146 back released"])
    }

    @Test func theEncoderTurnsInDetents() {
        var harness = DecoderHarness()
        harness.decoder.addEncoder(transitionsPerDetent: 4, reversed: false, a: false, b: false)
        for (time, a, b) in clockwise(at: 0) + clockwise(at: 20) {
            harness.feed(at: time) { $0.encoder(a: a, b: b, at: $1) }
        }
        #expect(harness.described == ["6 knob clockwise", "26 knob clockwise, 20 ms since the last"])
    }

    @Test func kernelStepsBecomeDetentsWithIntervals() {
        var harness = DecoderHarness()
        harness.decoder.addSteppedKnob(reversed: true)
        harness.feed(at: 0) { $0.steps(1, at: $1) }
        harness.feed(at: 30) { $0.steps(2, at: $1) }
        harness.feed(at: 500) { $0.steps(-1, at: $1) }
        #expect(harness.described == ["0 knob counter-clockwise", "30 knob counter-clockwise, 30 ms since the last",
                                      "30 knob counter-clockwise, 0 ms since the last", "500 knob clockwise"])
    }

    @Test func theJackReportsItsStartStatePullingOutAtOnceAndPluggingInOnceSettled() {
        var harness = DecoderHarness()
        harness.events += harness.decoder.addJack(debounce: .milliseconds(150), connected: true, at: ms(0)).map { (0, $0) }
        // Pulled out with bounce: out at the first edge, nothing more.
        for (time, connected) in [(1000, false), (1003, true), (1007, false), (1030, true), (1032, false)] {
            harness.feed(at: time) { $0.jack(connected: connected, at: $1) }
        }
        // Plugged back in with 40 ms of bounce: in, 150 ms after the contact settled.
        for (time, connected) in [(3000, true), (3010, false), (3020, true), (3040, false), (3041, true)] {
            harness.feed(at: time) { $0.jack(connected: connected, at: $1) }
        }
        harness.run(until: 5000)
        #expect(harness.described == ["0 headphones in", "1000 headphones out", "3191 headphones in"])
    }

    @Test func aJackEmptyAtStartReportsOutThenIn() {
        var harness = DecoderHarness()
        harness.events += harness.decoder.addJack(debounce: .milliseconds(150), connected: false, at: ms(0)).map { (0, $0) }
        harness.feed(at: 500) { $0.jack(connected: true, at: $1) }
        harness.run(until: 2000)
        #expect(harness.described == ["0 headphones out", "650 headphones in"])
    }

    @Test func aButtonHeldAtStartSaysNothingUntilPressedAgain() {
        var harness = DecoderHarness()
        harness.decoder.addButton(.play, .init(), heldAtStart: true)
        harness.feed(at: 2000) { $0.button(.play, pressed: false, at: $1) }
        harness.feed(at: 3000) { $0.button(.play, pressed: true, at: $1) }
        harness.run(until: 3100)
        #expect(harness.described == ["3000 play pressed"])
    }

    @Test func simultaneousDueTimersComeOutInTimeOrder() {
        var harness = DecoderHarness()
        harness.decoder.addButton(.play, .init())
        harness.decoder.addButton(.knob, .init(debounce: .milliseconds(5)))
        harness.feed(at: 0) { $0.button(.play, pressed: true, at: $1) }
        harness.feed(at: 0) { $0.button(.knob, pressed: true, at: $1) }
        harness.feed(at: 100) { $0.button(.play, pressed: false, at: $1) }
        harness.feed(at: 110) { $0.button(.knob, pressed: false, at: $1) }
        // A late timer at 500 settles both, the earlier-due first.
        harness.events += harness.decoder.timerFired(at: ms(500)).map { (500, $0) }
        #expect(harness.described == ["0 play pressed", "0 knob pressed", "500 knob released", "500 play released"])
    }
}
