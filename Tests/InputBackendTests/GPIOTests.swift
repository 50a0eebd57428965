import Devices
import EventLoop
import GPIODInput
import StillroomCore
import TestSupport
import Testing

func edge(_ milliseconds: Int, _ active: Bool) -> GPIOEdge { GPIOEdge(active: active, at: at(milliseconds)) }

func states(_ list: [(a: Bool, b: Bool, at: MonotonicInstant)]) -> [String] {
    list.map { "\($0.at.nanoseconds / 1_000_000) \($0.a ? 1 : 0)\($0.b ? 1 : 0)" }
}

@Suite struct GPIOTests {
    @Test func kernelTimestampsOnAnotherClockAreReplacedByNow() {
        let now = MonotonicInstant(nanoseconds: 5_000_000_000_000)
        #expect(GPIOLineEvents.instant(seconds: 5000, nanoseconds: 250, now: now) == MonotonicInstant(nanoseconds: 5_000_000_000_250))
        #expect(GPIOLineEvents.instant(seconds: 4990, nanoseconds: 0, now: now) == MonotonicInstant(nanoseconds: 4_990_000_000_000))
        // CLOCK_REALTIME on kernels before 5.7: years away from the monotonic clock.
        #expect(GPIOLineEvents.instant(seconds: 1_790_000_000, nanoseconds: 0, now: now) == now)
    }

    @Test func theEncoderLinesAreMergedByTimeAndClosedByTheLevelsReadBack() {
        // A clockwise detent: B falls, A falls, B rises, A rises (active-low: active = contact closed).
        let merged = GPIOLineEvents.encoderStates(a: [edge(2, true), edge(6, false)], b: [edge(0, true), edge(4, false)],
                                                  from: (false, false), readBack: (false, false), readBackAt: at(10))
        #expect(states(merged) == ["0 01", "2 11", "4 10", "6 00"])
    }

    @Test func aLostEdgeCostsThatDetentButTheReadBackKeepsTheKnobInStep() {
        // B's rising edge at 4 was lost (the FIFO overflowed): the edges seen go 01, 11, 01, and the lines read
        // back 00. That detent is lost — never counted the wrong way — and the decoder ends where the knob is,
        // so the next detent counts.
        let merged = GPIOLineEvents.encoderStates(a: [edge(2, true), edge(6, false)], b: [edge(0, true)],
                                                  from: (false, false), readBack: (false, false), readBackAt: at(10))
        #expect(states(merged) == ["0 01", "2 11", "6 01", "10 00"])
        var decoder = QuadratureDecoder(a: false, b: false)
        #expect(merged.compactMap { decoder.update(a: $0.a, b: $0.b, at: $0.at) }.isEmpty)
        let next = GPIOLineEvents.encoderStates(a: [edge(22, true), edge(26, false)], b: [edge(20, true), edge(24, false)],
                                                from: (false, false), readBack: (false, false), readBackAt: at(30))
        #expect(next.compactMap { decoder.update(a: $0.a, b: $0.b, at: $0.at) }.map(\.direction) == [1])
    }

    @Test func simultaneousEdgesTakeALineFirst() {
        let merged = GPIOLineEvents.encoderStates(a: [edge(5, true)], b: [edge(5, true)], from: (false, false),
                                                  readBack: nil, readBackAt: at(5))
        #expect(states(merged) == ["5 10", "5 11"])
    }

    @Test func messagesNameTheChipTheLineTheSectionAndTheFix() {
        let chip = (name: "gpiochip0", label: "pinctrl-bcm2711")
        #expect(GPIOMessages.chipMissing(labels: ["pinctrl-bcm2711", "pinctrl-rp1"], available: [chip], line: "GPIO5",
                                         section: "[play]").message
            == "gpio: no GPIO chip labelled pinctrl-bcm2711 or pinctrl-rp1 for GPIO5 in [play]; the chips here are "
            + "gpiochip0 [pinctrl-bcm2711]. Set \"chip\" in the board file to one of those labels (gpiodetect lists them)")
        #expect(GPIOMessages.chipPermission(line: "GPIO5", section: "[play]")
            == InputError(.permission, "gpio: cannot open the GPIO chips (/dev/gpiochip*) to find GPIO5 for [play]: permission "
                + "denied. Add the service user to the \"gpio\" group (SupplementaryGroups=gpio in the unit) and install "
                + "board/udev/60-stillroom-gpio.rules (SUBSYSTEM==\"gpio\", KERNEL==\"gpiochip*\", GROUP=\"gpio\", "
                + "MODE=\"0660\"), then restart the service"))
        #expect(GPIOMessages.lineMissing(name: "GPIO55", chip: chip, section: "[back]").message
            == "gpio: no line named GPIO55 on pinctrl-bcm2711 (gpiochip0) for [back]; `gpioinfo gpiochip0` lists the line "
            + "names. Fix \"line\" in the board file, or give the line's offset and its chip")
        #expect(GPIOMessages.lineMissing(name: "GPIO55", chip: nil, section: "[back]").message
            == "gpio: no line named GPIO55 on any GPIO chip for [back]; `gpioinfo` lists the line names. Fix \"line\" in "
            + "the board file, or give the line's offset and its chip")
        #expect(GPIOMessages.offsetOutOfRange(60, chip: chip, lines: 58, section: "[jack]").message
            == "gpio: pinctrl-bcm2711 (gpiochip0) has 58 lines, so there is no offset 60 for [jack]. Fix \"line\" in the board file")
        #expect(GPIOMessages.busy(line: "GPIO6", chip: chip, consumer: "gpio-keys", section: "[back]")
            == InputError(.busy, "gpio: GPIO6 on pinctrl-bcm2711 (gpiochip0) for [back] is already in use by \"gpio-keys\". "
                + "Stop the other program (`gpioinfo gpiochip0` shows the holder), or remove the dtoverlay that claims this "
                + "pin (a gpio-key, rotary-encoder or gpio-shutdown overlay in /boot/firmware/config.txt)"))
        #expect(GPIOMessages.requestPermission(line: "GPIO6", chip: chip, section: "[back]").kind == .permission)
        #expect(GPIOMessages.biasRefused(line: "GPIO12", chip: chip, bias: .pullUp, section: "[knob-turn] line-a").message
            == "gpio: the kernel refused bias = pull-up for GPIO12 on pinctrl-bcm2711 (gpiochip0) in [knob-turn] line-a "
            + "(line bias needs Linux 5.5 or later and a driver that supports it). Set bias = as-is in the board file and "
            + "fit external pull resistors, or set the pull in config.txt (gpio=N=ip,pu)")
    }

    @Test func withoutTheChipTheRealBackendSaysWhichChipAndLine() throws {
        // Runs libgpiod for real: on a machine without the Pi's chip (CI, a laptop) the request fails cleanly.
        let loop = try EventLoop()
        let board = try BoardFileParser.parse(boardText(["board": "chip = pinctrl-bcm2711, pinctrl-rp1"]))
        let input = GPIODInput(loop: loop, board: board)
        do {
            try input.start { _ in }
            Issue.record("started without a pinctrl-bcm2711 chip")
            input.stop()
        } catch {
            #expect(error.kind == .missing || error.kind == .permission)
            #expect(error.message.hasPrefix("gpio: "))
            #expect(error.message.contains("GPIO5") && error.message.contains("[play]"))
        }
    }
}

@Suite struct GPIOLibraryTests {
    /// The shim picks its implementation by the libgpiod header it was compiled against: v1 on the host's
    /// Debian 12 (libgpiod 1.6), v2 in the image's Debian 13 build (checked there by the system test).
    @Test func theHostBuildSpeaksTheHostsLibgpiod() throws {
        let pc = Subprocess.run("/usr/bin/pkg-config", ["--modversion", "libgpiod"])
        let major = pc.stdout.split(separator: ".").first.map(String.init) ?? "?"
        #expect(GPIODInput.library == "libgpiod v\(major)", "pkg-config says \(pc.stdout)")
    }
}
