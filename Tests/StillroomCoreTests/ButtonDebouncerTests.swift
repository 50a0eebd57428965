import StillroomCore
import Testing

/// Replays a timeline of raw edges (milliseconds, level) through a debouncer, firing its timer whenever
/// it asks, and returns every output with the millisecond it happened at.
func replay(_ edges: [(Int, Bool)], until end: Int, configuration: ButtonDebouncer.Configuration = .init(),
            heldAtStart: Bool = false) -> [(Int, ButtonDebouncer.Output)] {
    var debouncer = ButtonDebouncer(configuration, heldAtStart: heldAtStart)
    var outputs: [(Int, ButtonDebouncer.Output)] = []
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

func ms(_ value: Int) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(value) * 1_000_000) }

/// Outputs as comparable strings: "100 pressed", "270 released", "800 long", "1270 released after long".
func timeline(_ outputs: [(Int, ButtonDebouncer.Output)]) -> [String] {
    outputs.map { time, output in
        switch output {
        case .pressed: "\(time) pressed"
        case .released(let long): long ? "\(time) released after long" : "\(time) released"
        case .longPress: "\(time) long"
        case .repeated: "\(time) repeat"
        }
    }
}

@Suite struct ButtonDebouncerTests {
    @Test func aCleanPressIsOnePressAtOnceAndOneReleaseAfterTheSettle() {
        // Acts at the first edge; the release is believed once the line stayed released for 20 ms.
        #expect(timeline(replay([(100, true), (250, false)], until: 1000)) == ["100 pressed", "270 released"])
    }

    @Test func fiveMillisecondBounceIsOnePress() {
        let bounce = [(100, true), (101, false), (102, true), (103, false), (105, true), // press bounce, 5 ms
                      (300, false), (301, true), (302, false), (305, true), (305, false)] // release bounce
        #expect(timeline(replay(bounce, until: 1000)) == ["100 pressed", "325 released"])
    }

    @Test func fiftyMillisecondsOfChatterIsOnePress() {
        // A worn contact: 50 ms of chatter after the press with gaps of 3 to 9 ms, then a clean hold.
        var chatter: [(Int, Bool)] = [(100, true)]
        var time = 100
        while time < 150 {
            time += 3 + (time % 7)
            chatter.append((time, chatter.count % 2 == 0))
        }
        chatter.append((time + 1, true))
        chatter.append((400, false))
        #expect(timeline(replay(chatter, until: 1000)) == ["100 pressed", "420 released"])
    }

    @Test func chatterOnReleaseIsOneRelease() {
        // 50 ms of chatter as the finger lifts: the release counts once, 20 ms after the last edge.
        var edges: [(Int, Bool)] = [(0, true), (300, false)]
        for step in 1...8 { edges.append((300 + step * 6, step % 2 == 0 ? false : true)) }
        #expect(edges.last?.0 == 348 && edges.last?.1 == false)
        #expect(timeline(replay(edges, until: 1000)) == ["0 pressed", "368 released"])
    }

    @Test func twoPressesEightyMillisecondsApartAreTwoPresses() {
        let edges = [(100, true), (140, false), (180, true), (220, false)]
        #expect(timeline(replay(edges, until: 1000)) == ["100 pressed", "160 released", "180 pressed", "240 released"])
    }

    @Test func twoBouncyPressesEightyMillisecondsApartAreStillTwo() {
        let edges = [(100, true), (102, false), (103, true), (140, false), (142, true), (143, false),
                     (180, true), (181, false), (183, true), (220, false)]
        #expect(timeline(replay(edges, until: 1000)) == ["100 pressed", "163 released", "180 pressed", "240 released"])
    }

    @Test func aVeryQuickTapIsNotLost() {
        // A 3 ms tap, shorter than the debounce: a press and its release.
        #expect(timeline(replay([(100, true), (103, false)], until: 1000)) == ["100 pressed", "123 released"])
    }

    @Test func aMissedEdgeNeverDoublesOrInvertsAPress() {
        // Levels repeat when an edge is lost or read late: pressed twice, released twice.
        let edges = [(100, true), (104, true), (250, false), (262, false)]
        #expect(timeline(replay(edges, until: 1000)) == ["100 pressed", "282 released"])
        // The release edge itself lost: the backend re-reads the line after draining and reports the level.
        let resynced = [(100, true), (400, false)] // 400: the level read back after a wake-up
        #expect(timeline(replay(resynced, until: 1000)) == ["100 pressed", "420 released"])
    }

    @Test func holdingMakesALongPressThenRepeats() {
        let configuration = ButtonDebouncer.Configuration(longPress: .milliseconds(800), repeatInterval: .milliseconds(200))
        let outputs = replay([(0, true), (1250, false)], until: 2000, configuration: configuration)
        #expect(timeline(outputs) == ["0 pressed", "800 long", "1000 repeat", "1200 repeat", "1270 released after long"])
    }

    @Test func aGlitchShorterThanTheDebounceOnReleaseDoesNotRelease() {
        // Held, with the contact opening for 10 ms in the middle (a loose contact): still one hold.
        let edges = [(0, true), (300, false), (310, true), (900, false)]
        #expect(timeline(replay(edges, until: 2000)) == ["0 pressed", "800 long", "920 released after long"])
    }

    @Test func liftingJustBeforeTheLongPressTimeIsAShortPress() {
        // Released at 790: at 800 the release is still settling, so no long press fires.
        #expect(timeline(replay([(0, true), (790, false)], until: 2000)) == ["0 pressed", "810 released"])
    }

    @Test func aGlitchAcrossTheLongPressTimeStillMakesALongPress() {
        // The contact opens at 795 for 10 ms: at 800 it is open, at 805 closed again: the hold goes on.
        let edges = [(0, true), (795, false), (805, true), (1500, false)]
        #expect(timeline(replay(edges, until: 2000)) == ["0 pressed", "805 long", "1520 released after long"])
    }

    @Test func withoutALongPressTimeAHoldIsJustAPress() {
        let configuration = ButtonDebouncer.Configuration(debounce: .milliseconds(150), longPress: nil)
        #expect(timeline(replay([(0, true), (5000, false)], until: 6000, configuration: configuration))
            == ["0 pressed", "5150 released"])
    }

    @Test func aButtonHeldAtStartIsIgnoredUntilItsNextPress() {
        let outputs = replay([(500, false), (900, true), (1000, false)], until: 2000, heldAtStart: true)
        #expect(timeline(outputs) == ["900 pressed", "1020 released"])
    }
}
