import StillroomCore
import Testing

/// Replays a timeline of raw edges (milliseconds, level) through a debouncer, firing its timer whenever
/// it asks, and returns every output with the millisecond it happened at.
func replay(_ edges: [(Int, Bool)], until end: Int, configuration: ButtonDebouncer.Configuration = .init())
    -> [(Int, ButtonDebouncer.Output)] {
    var debouncer = ButtonDebouncer(configuration)
    var outputs: [(Int, ButtonDebouncer.Output)] = []
    func ms(_ value: Int) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(value) * 1_000_000) }
    func fireTimers(upTo limit: Int) {
        while let wake = debouncer.wakeAt, wake <= ms(limit) {
            let at = Int(wake.nanoseconds / 1_000_000)
            outputs += debouncer.timerFired(at: wake).map { (at, $0) }
        }
    }
    for (time, level) in edges {
        fireTimers(upTo: time)
        outputs += debouncer.edge(pressed: level, at: ms(time)).map { (time, $0) }
    }
    fireTimers(upTo: end)
    return outputs
}

func kinds(_ outputs: [(Int, ButtonDebouncer.Output)]) -> [ButtonDebouncer.Output] { outputs.map(\.1) }

@Suite struct ButtonDebouncerTests {
    @Test func aCleanPressIsOnePressAtOnceAndOneRelease() {
        let outputs = replay([(100, true), (250, false)], until: 1000)
        #expect(kinds(outputs) == [.pressed, .released(long: false)])
        #expect(outputs[0].0 == 100) // acts at the first edge
        #expect(outputs[1].0 == 270) // the release settles for 20 ms
    }

    @Test func fiveMillisecondBounceIsOnePress() {
        let bounce = [(100, true), (101, false), (102, true), (103, false), (105, true), (300, false), (301, true), (302, false)]
        #expect(kinds(replay(bounce, until: 1000)) == [.pressed, .released(long: false)])
    }

    @Test func fiftyMillisecondsOfChatterIsOnePress() {
        var chatter: [(Int, Bool)] = [(100, true)]
        var time = 100
        while time < 150 { // gaps of 3-9 ms, for 50 ms
            time += 3 + (time % 7)
            chatter.append((time, chatter.count % 2 == 0))
        }
        chatter.append((time + 1, true))
        chatter.append((400, false))
        #expect(kinds(replay(chatter, until: 1000)) == [.pressed, .released(long: false)])
    }

    @Test func twoPressesEightyMillisecondsApartAreTwoPresses() {
        let edges = [(100, true), (140, false), (180, true), (220, false)]
        #expect(kinds(replay(edges, until: 1000)) == [.pressed, .released(long: false), .pressed, .released(long: false)])
    }

    @Test func holdingMakesALongPressThenRepeats() {
        let configuration = ButtonDebouncer.Configuration(longPress: .milliseconds(800), repeatInterval: .milliseconds(200))
        let outputs = replay([(0, true), (1250, false)], until: 2000, configuration: configuration)
        #expect(kinds(outputs) == [.pressed, .longPress, .repeated, .repeated, .released(long: true)])
        #expect(outputs.map(\.0) == [0, 800, 1000, 1200, 1270])
    }

    @Test func aGlitchShorterThanTheDebounceOnReleaseDoesNotRelease() {
        // Held, with the contact opening for 10 ms in the middle (a loose contact): still one hold.
        let edges = [(0, true), (300, false), (310, true), (900, false)]
        let outputs = replay(edges, until: 2000)
        #expect(kinds(outputs) == [.pressed, .longPress, .released(long: true)])
    }
}
