import Devices
import EventLoop
import EvdevInput
import Glibc
import StillroomCore
import Testing
import TestSupport

func event(_ milliseconds: Int, _ type: UInt16, _ code: UInt16, _ value: Int32) -> RawInputEvent {
    RawInputEvent(seconds: Int64(milliseconds / 1000), microseconds: Int64(milliseconds % 1000) * 1000,
                  type: type, code: code, value: value)
}

func report(_ milliseconds: Int) -> RawInputEvent { event(milliseconds, 0, 0, 0) }

let keyPlayPause: UInt16 = 164
let keyBack: UInt16 = 158

func role() -> EvdevDeviceRole {
    var role = EvdevDeviceRole()
    role.keys = [keyPlayPause: .play, keyBack: .back]
    role.axis = (EvdevNames.typeRelative, 0)
    role.jackSwitch = 2
    return role
}

@Suite struct EvdevTests {
    @Test func recordsAreSplitAndKeptAcrossReads() {
        let events = [event(1500, 1, keyPlayPause, 1), report(1500), event(1620, 2, 0, -1)]
        let bytes = events.flatMap(EvdevRecordReader.bytes(of:))
        #expect(bytes.count == 72)
        var reader = EvdevRecordReader()
        #expect(reader.events(from: bytes[0..<30]) == [events[0]])
        #expect(reader.events(from: bytes[30..<72]) == [events[1], events[2]])
        #expect(events[2].instant == MonotonicInstant(nanoseconds: 1_620_000_000))
    }

    @Test func keysStepsAndTheSwitchAreRead() {
        var interpreter = EvdevInterpreter(role: role())
        let readings = interpreter.readings(for: [
            event(100, 1, keyPlayPause, 1), report(100),
            event(600, 1, keyPlayPause, 2), report(600), // autorepeat: ignored
            event(700, 1, keyPlayPause, 0), report(700),
            event(800, 1, 28, 1), report(800), // a key the board does not use
            event(900, 2, 0, 1), event(900, 2, 1, 5), report(900), // REL_Y is not the knob
            event(950, 2, 0, -2), report(950),
            event(1000, 5, 2, 0), report(1000),
        ])
        #expect(readings == [
            .button(.play, pressed: true, at: at(100)), .button(.play, pressed: false, at: at(700)),
            .steps(1, at: at(900)), .steps(-2, at: at(950)), .jack(connected: false, at: at(1000)),
        ])
    }

    @Test func afterADropEverythingUpToTheNextReportIsIgnoredAndStateIsReadAgain() {
        var interpreter = EvdevInterpreter(role: role())
        let readings = interpreter.readings(for: [
            event(100, 1, keyBack, 1), event(100, 0, 3, 0), // SYN_DROPPED
            event(110, 1, keyBack, 0), event(120, 2, 0, 3), report(130), // stale
            event(140, 2, 0, 1), report(140),
        ])
        #expect(readings == [.button(.back, pressed: true, at: at(100)), .resynchronize, .steps(1, at: at(140))])
    }

    @Test func anAbsoluteKnobCountsStepsTheShortWayRound() {
        var role = EvdevDeviceRole()
        role.axis = (EvdevNames.typeAbsolute, 0)
        var interpreter = EvdevInterpreter(role: role)
        interpreter.absolutePosition = 22
        interpreter.absoluteRange = 0...23 // rotary-encoder with steps = 24 and rollover
        let readings = interpreter.readings(for: [
            event(10, 3, 0, 23), report(10), event(20, 3, 0, 0), report(20), event(30, 3, 0, 1), report(30),
            event(40, 3, 0, 23), report(40), event(50, 3, 0, 20), report(50),
        ])
        #expect(readings == [.steps(1, at: at(10)), .steps(1, at: at(20)), .steps(1, at: at(30)), .steps(-2, at: at(40)),
                             .steps(-3, at: at(50))])
    }

    @Test func readingsThroughTheDecoderGiveCleanEvents() {
        // What the backend does with them: a gpio-keys press (already debounced by the kernel) held for a
        // long press, a spin from the rotary-encoder driver, the jack pulled.
        var interpreter = EvdevInterpreter(role: role())
        var decoder = InputDecoder()
        decoder.addButton(.play, .init())
        decoder.addSteppedKnob(reversed: false)
        var events = decoder.addJack(debounce: .milliseconds(150), connected: true, at: at(0))
        let readings = interpreter.readings(for: [
            event(100, 1, keyPlayPause, 1), report(100), event(1000, 1, keyPlayPause, 0), report(1000),
            event(1100, 2, 0, 1), report(1100), event(1130, 2, 0, 1), report(1130),
            event(1200, 5, 2, 0), report(1200),
        ])
        for reading in readings {
            switch reading {
            case .button(let control, let pressed, let time): events += decoder.button(control, pressed: pressed, at: time)
            case .steps(let count, let time): events += decoder.steps(count, at: time)
            case .jack(let connected, let time): events += decoder.jack(connected: connected, at: time)
            case .resynchronize: break
            }
        }
        events += decoder.timerFired(at: at(5000))
        #expect(events.map(\.description) == [
            "headphones in", "play pressed", "play long press", "play released (after long press)", "knob clockwise",
            "knob clockwise, 30 ms since the last", "headphones out",
        ])
    }

    @Test func deviceNamesMatchWithStars() {
        #expect(EvdevDeviceMatch.matches("button@5", name: "button@5"))
        #expect(!EvdevDeviceMatch.matches("button@5", name: "button@50"))
        #expect(EvdevDeviceMatch.matches("*button@5", name: "soc:button@5"))
        #expect(EvdevDeviceMatch.matches("rotary*", name: "rotary@c"))
        #expect(EvdevDeviceMatch.matches("*Headphone*", name: "bcm2835 Headphone Jack"))
        #expect(!EvdevDeviceMatch.matches("*Headphone*", name: "gpio_keys"))
        #expect(EvdevDeviceMatch.matches("*", name: ""))
    }

    @Test func bitArrays() {
        #expect(evdevBit([0b0000_0100, 0b1000_0000], 2))
        #expect(evdevBit([0b0000_0100, 0b1000_0000], 15))
        #expect(!evdevBit([0b0000_0100, 0b1000_0000], 3))
        #expect(!evdevBit([0b0000_0100], 40))
    }

    // The adapter itself, as far as it goes without /dev/input (uinput belongs to the QEMU system test).

    @Test func aDeviceNotThereAtStartIsWaitedForAndSaidWhatWasFoundAndWhereToLook() throws {
        let loop = try EventLoop()
        let directory = TemporaryDirectory("stillroom-evdev")
        defer { directory.remove() }
        let board = try BoardFileParser.parse(boardText([
            "play": "backend = evdev\ndevice = button@5\ncode = KEY_PLAYPAUSE",
        ]))
        let input = EvdevInput(loop: loop, board: board, directory: directory.path)
        var notices: [InputNotice] = []
        input.onNotice = { notices.append($0) }
        try input.start { _ in }
        #expect(notices == [InputNotice(.warning, "evdev: no input device named \"button@5\" for [play]; no input devices at all in "
            + "\(directory.path). Check the dtoverlay lines (board/README.md) and the names in /proc/bus/input/devices; waiting for it")])
        #expect(input.missingControls == [MissingControls(sections: ["play"], device: "button@5")])
        input.stop()
        #expect(input.missingControls.isEmpty)
    }

    /// A node appearing in the watched directory is tried at once (a FIFO: it opens like a device but
    /// answers no input ioctls, so it is refused, which shows it was tried).
    @Test func aDeviceAppearingInTheDirectoryIsTriedAtOnce() throws {
        let loop = try EventLoop()
        let directory = TemporaryDirectory("stillroom-evdev")
        defer { directory.remove() }
        let node = directory.file("event0")
        let board = try BoardFileParser.parse(boardText(["play": "backend = evdev\ndevice = \(node)\ncode = KEY_PLAYPAUSE"]))
        let input = EvdevInput(loop: loop, board: board, directory: directory.path)
        var notices: [InputNotice] = []
        input.onNotice = { notices.append($0) }
        try input.start { _ in }
        defer { input.stop() }
        #expect(input.missingControls == [MissingControls(sections: ["play"], device: node)])
        #expect(mkfifo(node, 0o600) == 0)
        _ = try loop.runOnce(timeout: .seconds(10)) // a guard: inotify answers at once
        #expect(notices.last == InputNotice(.warning, "evdev: \"?\" (\(node)) does not send KEY_PLAYPAUSE, which the board file "
            + "gives [play]; check \"code\" against `evtest \(node)`"))
        #expect(input.missingControls == [MissingControls(sections: ["play"], device: node)])
    }

    /// With no input device at all the kernel has no /dev/input yet: its parent is watched until it comes.
    @Test func theDevicesDirectoryItselfIsWaitedFor() throws {
        let loop = try EventLoop()
        let parent = TemporaryDirectory("stillroom-evdev")
        defer { parent.remove() }
        let directory = parent.file("input")
        let node = directory + "/event3"
        let board = try BoardFileParser.parse(boardText(["play": "backend = evdev\ndevice = \(node)\ncode = KEY_PLAYPAUSE"]))
        let input = EvdevInput(loop: loop, board: board, directory: directory)
        var notices: [InputNotice] = []
        input.onNotice = { notices.append($0) }
        try input.start { _ in }
        defer { input.stop() }
        #expect(mkdir(directory, 0o755) == 0)
        _ = try loop.runOnce(timeout: .seconds(10))
        #expect(mkfifo(node, 0o600) == 0)
        _ = try loop.runOnce(timeout: .seconds(10))
        #expect(notices.last?.message.hasPrefix("evdev: \"?\" (\(node)) does not send KEY_PLAYPAUSE") == true, "\(notices)")
    }

    /// At boot a node is first root's alone (devtmpfs), then udev gives it its group: a refused node in
    /// that first state is waited for; one with its group (or opened up) is the unit's fault, said so.
    @Test func aNodeUdevHasNotSetUpIsToldFromOneTheServiceMayNotOpen() {
        func node(uid: uid_t, gid: gid_t, mode: mode_t) -> stat {
            var made = stat()
            made.st_uid = uid
            made.st_gid = gid
            made.st_mode = S_IFCHR | mode
            return made
        }
        #expect(EvdevInput.udevHasNotSetUp(node(uid: 0, gid: 0, mode: 0o600)))
        #expect(EvdevInput.udevHasNotSetUp(node(uid: 0, gid: 0, mode: 0o400)))
        #expect(!EvdevInput.udevHasNotSetUp(node(uid: 0, gid: 104, mode: 0o660)), "group input: the service lacks the group")
        #expect(!EvdevInput.udevHasNotSetUp(node(uid: 0, gid: 0, mode: 0o660)), "root's group, opened to it")
        #expect(!EvdevInput.udevHasNotSetUp(node(uid: 0, gid: 0, mode: 0o604)))
        #expect(!EvdevInput.udevHasNotSetUp(node(uid: 1000, gid: 0, mode: 0o600)), "someone's own node")
        #expect(!EvdevInput.udevHasNotSetUp(nil), "gone: not waited for as this")
    }

    @Test func aDeviceThatDoesNotSendTheKeyIsRefused() throws {
        let loop = try EventLoop()
        let directory = TemporaryDirectory("stillroom-evdev")
        defer { directory.remove() }
        let node = directory.file("event0")
        #expect(mkfifo(node, 0o600) == 0) // opens like a device, but answers no input ioctls
        let board = try BoardFileParser.parse(boardText(["play": "backend = evdev\ndevice = \(node)\ncode = KEY_PLAYPAUSE"]))
        let input = EvdevInput(loop: loop, board: board, directory: directory.path)
        #expect(throws: InputError(.unsuitable, "evdev: \"?\" (\(node)) does not send KEY_PLAYPAUSE, which the board file gives "
            + "[play]; check \"code\" against `evtest \(node)`")) {
            try input.start { _ in }
        }
    }

    /// A path the directory's watch would not see appear (a by-path link, made by udev after the node)
    /// is not waited for: missing at start, it is an error that names it.
    @Test func aMissingPathOutsideTheWatchedDirectoryIsNamed() throws {
        let loop = try EventLoop()
        let board = try BoardFileParser.parse(boardText(["jack": "backend = evdev\ndevice = /dev/input/by-path/nowhere-event"]))
        for directory in ["/nonexistent", "/dev/input"] {
            let input = EvdevInput(loop: loop, board: board, directory: directory)
            #expect(throws: InputError(.missing, "evdev: cannot open /dev/input/by-path/nowhere-event ([jack]): No such file or "
                + "directory. Check the path in the board file and that the overlay creating it is loaded")) {
                try input.start { _ in }
            }
        }
    }
}
