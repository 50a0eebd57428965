import DeviceFakes
import Devices
import EventLoop
import Glibc
import StillroomCore
import Testing
import TerminalInput

@Suite struct ScriptedInputTests {
    @Test func pressesHoldsTurnsAndTheJackAreWhatHardwareWouldSend() throws {
        let input = ScriptedInput()
        var received: [String] = []
        try input.start { received.append($0.description) }
        input.press(.play)
        input.hold(.back)
        input.turn(-2, at: at(1000), spacing: .milliseconds(30))
        input.plug(false)
        input.send(.quit)
        #expect(received == [
            "headphones in", "play pressed", "play released", "back pressed", "back long press",
            "back released (after long press)", "knob counter-clockwise", "knob counter-clockwise, 30 ms since the last",
            "headphones out", "quit",
        ])
        input.stop()
        input.press(.play)
        #expect(received.count == 10) // stopped: nothing more
    }

    @Test func theMapperSeesScriptedInputLikeAnyOther() throws {
        let input = ScriptedInput(jackAtStart: nil)
        var mapper = ControlMapper()
        var actions: [ControlAction?] = []
        try input.start { actions.append(mapper.action(for: $0, on: .player, dark: false)) }
        input.press(.knob)
        input.turn(3, at: at(0), spacing: .milliseconds(30))
        input.hold(.back)
        #expect(actions == [nil, .toggleTranscript, .seekPreview(seconds: 15), .seekPreview(seconds: 60),
                            .seekPreview(seconds: 60), nil, nil, .home]) // home when BACK is let go
    }

    @Test func scriptsParse() throws {
        let steps = try ScriptedInput.parse("""
            # bedtime
            wait 2s
            press play
            wait 500ms
            turn +2 fast
            hold knob
            jack out
            quit
            """)
        #expect(steps.map(\.delay) == [.seconds(2), .milliseconds(500), .milliseconds(30), .zero, .zero, .zero])
        #expect(steps[0].events == [.button(.play, .pressed), .button(.play, .released(long: false))])
        #expect(steps[3].events == [.button(.knob, .pressed), .button(.knob, .longPress), .button(.knob, .released(long: true))])
        #expect(steps[4].events == [.jack(connected: false)])
        #expect(steps[5].events == [.quit])
    }

    @Test func badScriptsSayWhichLine() {
        #expect(throws: ScriptedInput.ScriptError(line: 2, message: "unknown step \"prss\" (wait, press, hold, turn, jack, quit)")) {
            _ = try ScriptedInput.parse("press play\nprss play")
        }
        #expect(throws: ScriptedInput.ScriptError(line: 1, message: "expected play, back or knob after \"press\"")) {
            _ = try ScriptedInput.parse("press stop")
        }
        #expect(throws: ScriptedInput.ScriptError(line: 3, message: "expected \"turn +N\" or \"turn -N\" (optionally \"fast\")")) {
            _ = try ScriptedInput.parse("\n\nturn lots")
        }
        #expect(throws: ScriptedInput.ScriptError(line: 1, message: "expected a duration like 500ms or 2s after \"wait\"")) {
            _ = try ScriptedInput.parse("wait 1.5")
        }
    }

    @Test func aScriptPlaysOnTheLoopInOrder() throws {
        let loop = try EventLoop()
        let input = ScriptedInput(loop: loop, jackAtStart: nil)
        var received: [InputEvent] = []
        try input.start { received.append($0) }
        input.play(try ScriptedInput.parse("press play\nturn +1\njack out"))
        for _ in 0..<50 where received.count < 4 { try loop.runOnce(timeout: .seconds(5)) }
        #expect(received.count == 4)
        #expect(received[0] == .button(.play, .pressed) && received[1] == .button(.play, .released(long: false)))
        if case .turn(let detent) = received[2] { #expect(detent.direction == 1) } else { Issue.record("no turn") }
        #expect(received[3] == .jack(connected: false))
    }
}

/// Serialized: the terminal's settings are saved for one terminal per process (the C shim keeps them in
/// static memory a crash's signal handler can read), so two of these tests putting pseudo-terminals in raw
/// mode at once would each find the other's saved first (seen: the first terminal of
/// `aSecondTerminalInputStoppingLeavesTheFirstRaw` left raw, its settings slot taken by a neighbour's).
@Suite(.serialized) struct TerminalInputTests {
    @Test func keysPipedInBecomeEventsOnTheLoop() throws {
        let loop = try EventLoop()
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let board = try BoardFileParser.parse(boardText([
            "play": "backend = terminal", "back": "backend = terminal", "knob-turn": "backend = terminal",
            "knob-press": "backend = terminal", "jack": "backend = terminal",
        ]))
        let input = TerminalInput(loop: loop, board: board, fd: ends[0])
        var received: [String] = []
        var notices: [String] = []
        input.onNotice = { notices.append($0.message) }
        try input.start { received.append($0.description) }
        let keys = Array(" \u{1b}[B\r\u{7f}jq".utf8)
        #expect(write(ends[1], keys, keys.count) == keys.count)
        close(ends[1])
        for _ in 0..<50 where notices.isEmpty { try loop.runOnce(timeout: .seconds(5)) }
        #expect(received == [
            "headphones in", "play pressed", "play released", "knob clockwise", "knob pressed", "knob released",
            "back pressed", "back released", "headphones out", "quit",
        ])
        #expect(notices == ["terminal: end of input; keys are off"])
        input.stop()
    }

    @Test func standardInputFromDevNullTurnsKeysOffWithoutFailing() throws {
        let loop = try EventLoop()
        let fd = open("/dev/null", O_RDONLY)
        defer { close(fd) }
        let board = try BoardFileParser.parse(boardText(["play": "backend = terminal"]))
        let input = TerminalInput(loop: loop, board: board, fd: fd)
        var notices: [String] = []
        input.onNotice = { notices.append($0.message) }
        try input.start { _ in }
        #expect(notices == ["terminal: fd \(fd) is not a terminal or pipe the loop can wait on (a file or /dev/null?); keys are off"])
        input.stop()
    }

    @Test func aTerminalGoesRawForTheKeysAndComesBackAsItWas() throws {
        let loop = try EventLoop()
        // A pseudo-terminal pair (posix_openpt and friends are not visible from Swift's Glibc): unlock it with
        // TIOCSPTLCK and find its number with TIOCGPTN, the generic Linux ioctl numbers on x86_64 and arm64.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        #expect(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        #expect(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
        let follower = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        #expect(follower >= 0)
        defer { close(follower) }
        var before = termios()
        #expect(tcgetattr(follower, &before) == 0)
        #expect(before.c_lflag & tcflag_t(ECHO | ICANON) == tcflag_t(ECHO | ICANON))

        let board = try BoardFileParser.parse(boardText(["play": "backend = terminal", "knob-turn": "backend = terminal"]))
        let input = TerminalInput(loop: loop, board: board, fd: follower)
        var received: [String] = []
        try input.start { received.append($0.description) }
        var raw = termios()
        #expect(tcgetattr(follower, &raw) == 0)
        #expect(raw.c_lflag & tcflag_t(ECHO | ICANON) == 0)
        #expect(raw.c_lflag & tcflag_t(ISIG) != 0) // Ctrl-C still reaches the daemon as SIGINT

        let keys = Array(" \u{1b}[A".utf8)
        #expect(write(master, keys, keys.count) == keys.count)
        for _ in 0..<50 where received.count < 3 { try loop.runOnce(timeout: .seconds(5)) }
        #expect(received == ["play pressed", "play released", "knob counter-clockwise"])

        input.stop()
        var after = termios()
        #expect(tcgetattr(follower, &after) == 0)
        #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag)
        #expect(raw.c_cc.10 == 0 && after.c_cc.10 == before.c_cc.10) // VSUSP (index 10 on Linux): Ctrl-Z off, then back
        #expect(after.c_cc.6 == before.c_cc.6) // VMIN
    }

    /// A pseudo-terminal's follower side, opened (master, follower); nil when the machine has none.
    static func pseudoTerminal() -> (Int32, Int32)? {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else { close(master); return nil }
        let follower = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard follower >= 0 else { close(master); return nil }
        return (master, follower)
    }

    /// Two terminal inputs in one process (two tests side by side did it): the second stopping puts back
    /// its own terminal, never the first's, which stays raw and keeps its keys. Seen failing when a stop
    /// restored whatever terminal was saved first (the first terminal back in cooked mode: keys waiting
    /// for a newline; a CI run's pty test received nothing).
    @Test func aSecondTerminalInputStoppingLeavesTheFirstRaw() throws {
        let loop = try EventLoop()
        let (firstMaster, first) = try #require(Self.pseudoTerminal())
        let (secondMaster, second) = try #require(Self.pseudoTerminal())
        defer { [firstMaster, first, secondMaster, second].forEach { close($0) } }
        let board = try BoardFileParser.parse(boardText(["play": "backend = terminal"]))
        let one = TerminalInput(loop: loop, board: board, fd: first)
        let two = TerminalInput(loop: loop, board: board, fd: second)
        var received: [String] = []
        try one.start { received.append($0.description) }
        try two.start { _ in }
        two.stop()
        var settings = termios()
        #expect(tcgetattr(first, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ECHO | ICANON) == 0, "the first terminal was put back to cooked mode")
        let keys = Array(" ".utf8)
        #expect(write(firstMaster, keys, keys.count) == keys.count)
        for _ in 0..<10 where received.count < 2 { try loop.runOnce(timeout: .seconds(5)) }
        #expect(received == ["play pressed", "play released"])
        one.stop()
        #expect(tcgetattr(first, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ECHO | ICANON) == tcflag_t(ECHO | ICANON), "the first terminal was not put back")
    }
}
