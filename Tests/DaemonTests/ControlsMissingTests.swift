import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// A box whose button and knob devices are not there when the daemon starts (their driver loads later, a
/// USB keypad is not plugged in yet, or the board file misspells a name): the daemon starts anyway, plays
/// what the CLI asks, and says which controls wait on the screen (a live notice) and in the doctor. The
/// real kernel side (uinput devices appearing after the start) is the QEMU system test's.
@Suite struct ControlsMissingTests {
    func box() -> DrivenDaemon {
        let daemon = DrivenDaemon(content: RepositoryPaths.content)
        let board = daemon.directory.file("board.conf")
        Files.write("""
            [board]
            name = a box whose devices come late
            [play]
            backend = evdev
            device = stillroom-test-late-buttons
            code = KEY_PLAYPAUSE
            [back]
            backend = evdev
            device = stillroom-test-late-buttons
            code = KEY_BACK
            [knob-turn]
            backend = evdev
            device = stillroom-test-late-knob
            code = REL_X
            [knob-press]
            backend = evdev
            device = stillroom-test-late-buttons
            code = KEY_ENTER
            [jack]
            backend = evdev
            device = stillroom-test-late-jack
            code = SW_HEADPHONE_INSERT

            """, to: board)
        daemon.extraArguments = ["--input", "evdev", "--board", board]
        return daemon
    }

    @Test func theBoxStartsPlaysAndSaysWhichControlsWaitForTheirDevice() throws {
        let daemon = box()
        try daemon.start()
        defer { daemon.stop() }
        let notices = daemon.status().notices
        let notice = notices.first { $0.kind == .controlsMissing }
        #expect(notice?.message == "Not answering yet: PLAY, BACK and pressing the knob (\"stillroom-test-late-buttons\"); "
            + "turning the knob (\"stillroom-test-late-knob\"); the headphone socket (\"stillroom-test-late-jack\").", "\(notices)")
        let doctor = daemon.ctl("doctor")
        #expect(doctor.status == 1, "\(doctor)")
        #expect(doctor.stdout.contains("FAIL input"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("evdev; waiting for [play], [back], [knob-press] on \"stillroom-test-late-buttons\""), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("the device names are in /proc/bus/input/devices"), "\(doctor.stdout)")
        // Everything else works: the CLI plays, and the recording is heard.
        #expect(daemon.ctl("play", "steady-breath").status == 0)
        let playing = try daemon.advance(until: { $0.position >= 3 })
        #expect(playing.state == .playing)
        // Dismissed, the notice goes (until a device goes again); the doctor still says it.
        #expect(daemon.ctl("dismiss", "--notice", "-5").status == 0)
        #expect(!daemon.status().notices.contains { $0.kind == .controlsMissing })
        #expect(daemon.ctl("doctor").stdout.contains("FAIL input"))
        #expect(daemon.log.contains("input: evdev: no input device named \"stillroom-test-late-buttons\""), "\(daemon.log)")
        // A restart with the devices still missing starts again, and says it again (a dismissal is this run's).
        daemon.stop()
        try daemon.start()
        #expect(daemon.status().notices.contains { $0.kind == .controlsMissing })
        #expect(daemon.ctl("play", "steady-breath").status == 0)
    }
}
