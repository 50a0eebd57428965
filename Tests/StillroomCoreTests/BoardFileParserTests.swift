import StillroomCore
import Testing
import TestSupport

/// A board file with every section, each control on a gpio line; `replace` swaps in a section's body.
func boardText(_ sections: [String: String] = [:], drop: Set<String> = []) -> String {
    let defaults: [(String, String)] = [
        ("board", "chip = pinctrl-bcm2711"),
        ("play", "backend = gpio\nline = GPIO5"),
        ("back", "backend = gpio\nline = GPIO6"),
        ("knob-turn", "backend = gpio\nline-a = GPIO12\nline-b = GPIO13"),
        ("knob-press", "backend = gpio\nline = GPIO16"),
        ("jack", "backend = gpio\nline = GPIO26\nactive = high"),
    ]
    return defaults.filter { !drop.contains($0.0) }
        .map { "[\($0.0)]\n\(sections[$0.0] ?? $0.1)\n" }.joined()
}

/// The problems a board file is refused with, as "line: message" strings.
func problems(_ text: String) -> [String] {
    do {
        _ = try BoardFileParser.parse(text, fileName: "b.conf")
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

@Suite struct BoardFileParserTests {
    @Test func theReferencePiFileReadsAsWired() throws {
        let text = String(decoding: Files.read(RepositoryPaths.root + "/board/reference-pi.conf"), as: UTF8.self)
        let board = try BoardFileParser.parse(text, fileName: "reference-pi.conf")
        let chips = ["pinctrl-bcm2711", "pinctrl-bcm2835", "pinctrl-rp1"]
        let timing = ButtonDebouncer.Configuration(debounce: .milliseconds(20), longPress: .milliseconds(800))
        #expect(board.name == "Reference Pi (Zero 2 W, 3, 4, 5)")
        #expect(board.play == ButtonBinding(source: .gpio(GPIOLine(chips: chips, line: .name("GPIO5"), activeLow: true, bias: .pullUp)),
                                            debouncer: timing))
        #expect(board.back.source == .gpio(GPIOLine(chips: chips, line: .name("GPIO6"), activeLow: true, bias: .pullUp)))
        #expect(board.knobPress.source == .gpio(GPIOLine(chips: chips, line: .name("GPIO16"), activeLow: true, bias: .pullUp)))
        #expect(board.knobTurn == KnobBinding(source: .gpio(a: GPIOLine(chips: chips, line: .name("GPIO12"), activeLow: true, bias: .pullUp),
                                                            b: GPIOLine(chips: chips, line: .name("GPIO13"), activeLow: true, bias: .pullUp)),
                                              transitionsPerDetent: 4, reversed: false))
        #expect(board.jack == JackBinding(source: .gpio(GPIOLine(chips: chips, line: .name("GPIO26"), activeLow: false, bias: .pullUp)),
                                          debounce: .milliseconds(150)))
        #expect(board.backends == [.gpio])
    }

    @Test func theSimulatorFileIsAllTerminal() throws {
        let text = String(decoding: Files.read(RepositoryPaths.root + "/board/simulator.conf"), as: UTF8.self)
        let board = try BoardFileParser.parse(text, fileName: "simulator.conf")
        #expect(board.play.source == .terminal && board.back.source == .terminal && board.knobPress.source == .terminal)
        #expect(board.knobTurn.source == .terminal && board.jack.source == .terminal)
        #expect(board.backends == [.terminal])
    }

    @Test func theKernelDriverFileReadsEvdevControls() throws {
        let text = String(decoding: Files.read(RepositoryPaths.root + "/board/evdev-pi.conf"), as: UTF8.self)
        let board = try BoardFileParser.parse(text, fileName: "evdev-pi.conf")
        #expect(board.play.source == .evdev(EvdevCode(device: "button@5", type: 1, code: 164)))
        #expect(board.back.source == .evdev(EvdevCode(device: "button@6", type: 1, code: 158)))
        #expect(board.knobPress.source == .evdev(EvdevCode(device: "button@10", type: 1, code: 28)))
        #expect(board.knobTurn.source == .evdev(EvdevCode(device: "rotary@c", type: 2, code: 0)))
        #expect(board.backends == [.evdev, .gpio])
    }

    @Test func valuesOtherThanTheDefaults() throws {
        let board = try BoardFileParser.parse(boardText([
            "play": "backend = gpio\nchip = pinctrl-rp1\nline = 5\nactive = high\nbias = pull-down\ndebounce = 0ms\nlong-press = 1.5s\nrepeat = 250ms",
            "knob-turn": "backend = gpio\nline-a = GPIO12\nline-b = GPIO13\nbias = disabled\ndetent = 2\ndirection = reversed",
            "jack": "backend = alsa\ncard = sndrpihifiberry",
            "knob-press": "backend = evdev\ndevice = \"gpio keys\"  # quoted: holds a space\ncode = 353",
            "back": "backend = none",
        ]))
        #expect(board.play == ButtonBinding(source: .gpio(GPIOLine(chips: ["pinctrl-rp1"], line: .offset(5), activeLow: false, bias: .pullDown)),
                                            debouncer: .init(debounce: .zero, longPress: .milliseconds(1500), repeatInterval: .milliseconds(250))))
        #expect(board.knobTurn.transitionsPerDetent == 2 && board.knobTurn.reversed)
        #expect(board.jack.source == .alsa(card: "sndrpihifiberry", control: "Headphone Jack"))
        #expect(board.knobPress.source == .evdev(EvdevCode(device: "gpio keys", type: 1, code: 353)))
        #expect(board.back.source == .none)
        #expect(board.backends == [.gpio, .alsa, .evdev])
    }

    @Test func aLineThatIsNotASectionOrKeyValue() {
        #expect(problems("# fine\n\n[play]\nbackend gpio\n") == [
            "b.conf:3: [play] needs \"backend\" (gpio, evdev, terminal or none)",
            "b.conf:4: expected \"[section]\" or \"key = value\", found \"backend gpio\"",
            "b.conf: missing section [back]; write it with \"backend = none\" if the box has no such button",
            "b.conf: missing section [knob-press]; write it with \"backend = none\" if the box has no such button",
            "b.conf: missing section [knob-turn]; write it with \"backend = none\" if the box has no knob",
            "b.conf: missing section [jack]; write it with \"backend = none\" if the box has no headphone detection",
        ])
    }

    @Test func aKeyBeforeAnySection() {
        #expect(problems("line = GPIO5\n" + boardText()) == [
            "b.conf:1: \"line\" comes before any section; start one with a header like [play]",
        ])
    }

    @Test func anUnknownSectionWithASuggestion() {
        #expect(problems(boardText() + "[jak]\nbackend = none\n") == [
            "b.conf:20: unknown section [jak]; the sections are [board], [play], [back], [knob-turn], [knob-press], [jack]; did you mean [jack]?",
        ])
    }

    @Test func aSectionTwice() {
        #expect(problems(boardText() + "[play]\nbackend = none\n") == [
            "b.conf:20: section [play] again; it began on line 3",
        ])
    }

    @Test func aKeyTwice() {
        #expect(problems(boardText(["play": "backend = gpio\nline = GPIO5\nline = GPIO7"])) == [
            "b.conf:6: \"line\" is set again in [play]; it was set on line 5",
        ])
    }

    @Test func anUnknownKeyWithASuggestion() {
        #expect(problems(boardText(["play": "backend = gpio\nline = GPIO5\ndebounse = 20ms"])) == [
            "b.conf:6: unknown key \"debounse\" in [play] (gpio); did you mean \"debounce\"? Its keys are backend, chip, line, active, bias, debounce, long-press and repeat",
        ])
    }

    @Test func aKeyOfAnotherBackend() {
        #expect(problems(boardText(["play": "backend = terminal\nline = GPIO5"])) == [
            "b.conf:5: unknown key \"line\" in [play] (terminal); its keys are backend",
        ])
    }

    @Test func badValues() {
        let text = boardText([
            "play": "backend = gpoi\nline = GPIO5",
            "back": "backend = gpio\nline = GPIO6\nactive = lo\nbias = pullup\ndebounce = 20\nlong-press = 20s\nrepeat = sometimes",
            "knob-turn": "backend = gpio\nline-a = GPIO12\nline-b = GPIO13\ndetent = 3\ndirection = backwards",
        ])
        #expect(problems(text) == [
            "b.conf:4: \"backend\" must be gpio, evdev, terminal or none, not \"gpoi\"; did you mean \"gpio\"?",
            "b.conf:9: \"active\" must be low or high, not \"lo\"",
            "b.conf:10: \"bias\" must be pull-up, pull-down, disabled or as-is, not \"pullup\"; did you mean \"pull-up\"?",
            "b.conf:11: \"debounce\" must be a duration like 20ms or 1.5s, not \"20\"",
            "b.conf:12: \"long-press\" must be between 300ms and 5s, not 20s",
            "b.conf:13: \"repeat\" must be a duration like 20ms or 1.5s, or off, not \"sometimes\"",
            "b.conf:18: \"detent\" must be 1, 2 or 4 (transitions a detent: 4 for most EC11 encoders), not \"3\"",
            "b.conf:19: \"direction\" must be normal or reversed, not \"backwards\"",
        ])
    }

    @Test func missingRequiredKeys() {
        let text = boardText([
            "play": "backend = gpio",
            "knob-turn": "backend = gpio\nline-a = GPIO12",
            "knob-press": "backend = evdev\ncode = KEY_ENTER",
            "jack": "backend = gpio\nline = GPIO26",
        ])
        #expect(problems(text) == [
            "b.conf:3: [play] (gpio) needs \"line\": the GPIO line's name (as GPIO17) or its offset on the chip",
            "b.conf:8: [knob-turn] (gpio) needs \"line-b\": the GPIO line's name (as GPIO17) or its offset on the chip",
            "b.conf:11: [knob-press] (evdev) needs \"device\": the input device's name (as /proc/bus/input/devices shows it; * matches anything) or a path under /dev/input",
            "b.conf:14: [jack] (gpio) needs \"active\": the level the switch pin has with headphones in (high or low), which depends on the jack's wiring",
        ])
    }

    @Test func aMissingSection() {
        #expect(problems(boardText(drop: ["jack"])) == [
            "b.conf: missing section [jack]; write it with \"backend = none\" if the box has no headphone detection",
        ])
    }

    @Test func oneLineForTwoControls() {
        #expect(problems(boardText(["back": "backend = gpio\nline = GPIO5"])) == [
            "b.conf:8: GPIO5 is already used by [play] on line 5",
        ])
        #expect(problems(boardText(["knob-turn": "backend = gpio\nline-a = GPIO12\nline-b = GPIO12"])) == [
            "b.conf:12: GPIO12 is already used by [knob-turn] on line 11",
        ])
    }

    @Test func aChipByNumberIsRefused() {
        #expect(problems(boardText(["board": "chip = gpiochip0"])) == [
            "b.conf:2: \"chip\" must name chips by label (as pinctrl-bcm2711: gpiodetect shows it in brackets), not \"gpiochip0\": chip numbers change between kernels and boots",
        ])
    }

    @Test func anOffsetNeedsAChip() {
        #expect(problems(boardText(["board": "name = no chip", "play": "backend = gpio\nline = 5"])) == [
            "b.conf:5: \"line\" = 5 is an offset, which needs a chip: set \"chip\" here or in [board], or name the line (as GPIO5)",
        ])
    }

    @Test func badEvdevCodes() {
        let text = boardText([
            "play": "backend = evdev\ndevice = gpio_keys\ncode = KEY_PLAYPAUS",
            "knob-turn": "backend = evdev\ndevice = rotary@c\ncode = KEY_UP",
            "jack": "backend = evdev\ndevice = card0\ncode = SW_HEADPHONES",
        ])
        #expect(problems(text) == [
            "b.conf:6: \"code\" must be a key (as KEY_PLAYPAUSE, KEY_BACK, KEY_ENTER, BTN_0) or a key number from 1 to 767, not \"KEY_PLAYPAUS\"; did you mean \"KEY_PLAYPAUSE\"?",
            "b.conf:13: \"code\" must be an axis: ABS_MISC, ABS_WHEEL, ABS_X, ABS_Y, ABS_Z, REL_DIAL, REL_HWHEEL, REL_MISC, REL_WHEEL, REL_X, REL_Y or REL_Z, not \"KEY_UP\"",
            "b.conf:20: \"code\" must be a switch: SW_HEADPHONE_INSERT, SW_JACK_PHYSICAL_INSERT, SW_LINEOUT_INSERT or SW_MICROPHONE_INSERT, not \"SW_HEADPHONES\"",
        ])
    }

    @Test func aKeyWithNoValueAndControlCharacters() {
        #expect(problems(boardText(["play": "backend = gpio\nline =\nline\u{7} = x"])) == [
            "b.conf:3: [play] (gpio) needs \"line\": the GPIO line's name (as GPIO17) or its offset on the chip",
            "b.conf:5: \"line\" has no value",
            "b.conf:6: control characters are not allowed: \"line\\u{0007} = x\"",
        ])
    }

    @Test func durationsAndComments() throws {
        let board = try BoardFileParser.parse(boardText([
            "play": "backend = gpio   # trailing comment\nline = GPIO5#not-a-comment\nlong-press = 2s\nrepeat = off",
        ]))
        #expect(board.play.source == .gpio(GPIOLine(chips: ["pinctrl-bcm2711"], line: .name("GPIO5#not-a-comment"), activeLow: true, bias: .pullUp)))
        #expect(board.play.debouncer.longPress == .seconds(2))
        #expect(board.play.debouncer.repeatInterval == nil)
    }

    @Test func everyProblemIsReportedAtOnceInLineOrder() {
        let text = "[play]\nbackend = gpio\nline = GPIO5\nactive = sideways\n[back]\nbackend = maybe\n[jack]\nbackend = none\n"
        #expect(problems(text) == [
            "b.conf:4: \"active\" must be low or high, not \"sideways\"",
            "b.conf:6: \"backend\" must be gpio, evdev, terminal or none, not \"maybe\"",
            "b.conf: missing section [knob-press]; write it with \"backend = none\" if the box has no such button",
            "b.conf: missing section [knob-turn]; write it with \"backend = none\" if the box has no knob",
        ])
    }
}
