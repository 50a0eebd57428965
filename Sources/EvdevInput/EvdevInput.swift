import CInputShims
import Devices
import EventLoop
import Glibc
import StillroomCore
import SystemCalls

/// Controls read from the kernel's input devices: gpio-keys buttons (EV_KEY), the rotary-encoder driver
/// (EV_REL, or EV_ABS without `relative_axis`), a sound card's jack switch (EV_SW). See board/README.md
/// for the device-tree overlays that create them.
///
/// Each device is matched by name (or path) from the board file, grabbed (EVIOCGRAB: nobody else — a
/// console, another program — sees its keys), and stamped with CLOCK_MONOTONIC so event times match the
/// loop's timers. The state at start is read (EVIOCGKEY, EVIOCGSW): a held button is ignored until its
/// next press and the jack's state is sent at once. A device that goes away (ENODEV, as when its driver is
/// unbound or a USB sound card is pulled) is closed; /dev/input is watched with inotify and the device is
/// opened and grabbed again when it returns. A device not there at start is waited for the same way (its
/// driver may load after the daemon): the start goes on with a warning, and `missingControls` names what
/// waits, for the screen and the doctor, so a misspelt name is seen rather than silently waited on. Debouncing, long presses and repeats are done here as for
/// GPIO lines, so both backends behave alike.
public final class EvdevInput: InputBackend {
    public let name = "evdev"
    public var onNotice: ((InputNotice) -> Void)?

    /// One device the board names, with what it is read for.
    final class Slot {
        let pattern: String
        /// The board file's sections read from it, by name.
        var sectionNames: [String] = []
        /// The same as messages give them: "[play], [back]".
        var sections: String { sectionNames.map { "[\($0)]" }.joined(separator: ", ") }
        var role: EvdevDeviceRole
        var interpreter: EvdevInterpreter
        var reader = EvdevRecordReader()
        /// The open device; nil while it is missing.
        var device: FileDescriptor?
        var fd: Int32 { device?.rawValue ?? -1 }
        var path: String?
        var watch: IOWatch?
        var monotonic = true

        init(pattern: String, role: EvdevDeviceRole) {
            self.pattern = pattern
            self.role = role
            interpreter = EvdevInterpreter(role: role)
        }
    }

    private let loop: EventLoop
    private let board: Board
    private let directory: String
    private var slots: [Slot] = []
    private var decoder = InputDecoder()
    private var handler: ((InputEvent) -> Void)?
    private var timer: LoopTimer?
    private var inotify: FileDescriptor?
    private var inotifyWatch: IOWatch?
    /// The inotify watch is on the devices' directory itself (not on its parent, waiting for it).
    private var watchingDirectory = false
    /// The watch on the directory's parent while the directory is not there, or -1.
    private var parentWatch: Int32 = -1
    private var started = false

    /// Reads the controls `board` binds to evdev; devices are looked for in `directory`.
    public init(loop: EventLoop, board: Board, directory: String = "/dev/input") {
        self.loop = loop
        self.board = board
        self.directory = directory
    }

    // MARK: Start and stop

    public func start(_ handler: @escaping (InputEvent) -> Void) throws(InputError) {
        stop()
        slots = Self.slots(for: board)
        decoder = InputDecoder()
        do {
            for slot in slots {
                do {
                    try open(slot, required: true)
                } catch let error where error.kind == .missing && mayAppearLater(slot) {
                    onNotice?(InputNotice(.warning, error.message + "; waiting for it"))
                }
            }
            try watchDirectory()
        } catch {
            stop()
            throw error
        }
        timer = loop.makeTimer { [unowned self] in timerFired() }
        self.handler = handler
        started = true
        var initial: [InputEvent] = []
        for slot in slots { initial += setUpDecoder(for: slot) }
        deliver(initial)
    }

    public func stop() {
        for slot in slots { close(slot) }
        slots = []
        inotifyWatch?.cancel()
        inotifyWatch = nil
        inotify = nil // closes it, and its watches with it
        watchingDirectory = false
        parentWatch = -1
        timer?.cancel()
        timer = nil
        handler = nil
        started = false
    }

    public var missingControls: [MissingControls] {
        slots.filter { $0.fd < 0 }.map { MissingControls(sections: $0.sectionNames, device: $0.pattern) }
    }

    /// A device looked for by name, or by a path right in the watched directory, is seen when it appears
    /// (inotify on that directory). A path elsewhere (a by-path link, made by udev after the node) is not:
    /// missing at start, it stays an error.
    private func mayAppearLater(_ slot: Slot) -> Bool {
        guard slot.pattern.hasPrefix("/") else { return true }
        guard slot.pattern.hasPrefix(directory + "/") else { return false }
        return !slot.pattern.dropFirst(directory.count + 1).contains("/")
    }

    /// Groups the board's evdev bindings by device.
    static func slots(for board: Board) -> [Slot] {
        var slots: [Slot] = []
        func slot(_ device: String) -> Slot {
            if let found = slots.first(where: { $0.pattern == device }) { return found }
            let made = Slot(pattern: device, role: EvdevDeviceRole())
            slots.append(made)
            return made
        }
        func add(_ section: String, _ device: String, _ change: (inout EvdevDeviceRole) -> Void) {
            let target = slot(device)
            change(&target.role)
            target.interpreter = EvdevInterpreter(role: target.role)
            target.sectionNames.append(section)
        }
        for (control, section) in [(Control.play, "play"), (.back, "back"), (.knob, "knob-press")] {
            if case .evdev(let code) = board.button(control).source {
                add(section, code.device) { $0.keys[code.code] = control }
            }
        }
        if case .evdev(let code) = board.knobTurn.source {
            add("knob-turn", code.device) { $0.axis = (code.type, code.code) }
        }
        if case .evdev(let code) = board.jack.source {
            add("jack", code.device) { $0.jackSwitch = code.code }
        }
        return slots
    }

    // MARK: Opening devices

    /// Finds, opens, checks and grabs the slot's device. `required`: at start a missing device is an error;
    /// later (a device coming back) it is simply not there yet.
    private func open(_ slot: Slot, required: Bool) throws(InputError) {
        var candidates: [String]
        if slot.pattern.hasPrefix("/") {
            candidates = [slot.pattern]
        } else {
            candidates = Self.eventNodes(in: directory)
        }
        var seen: [String] = []
        var refused: [(String, Int32)] = []
        for path in candidates {
            let fd = retryingOnInterrupt { Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
            if fd < 0 {
                refused.append((path, errno))
                continue
            }
            let device = FileDescriptor(adopting: fd)
            let name = Self.deviceName(fd)
            if slot.pattern.hasPrefix("/") || EvdevDeviceMatch.matches(slot.pattern, name: name) {
                do {
                    try adopt(device, path: path, name: name, for: slot)
                    return
                } catch {
                    device.close()
                    if required { throw error }
                    onNotice?(InputNotice(.warning, error.message))
                    return
                }
            }
            seen.append("\"\(name)\" (\(path))")
            device.close()
        }
        guard required else { return }
        let denials = refused.filter { $0.1 == EACCES || $0.1 == EPERM }
        if let early = denials.first(where: { Self.udevHasNotSetUp(Files.status($0.0)) }) {
            // At boot the kernel makes the node, root's alone, and udev gives it its group a moment later:
            // the directory's watch sees that change (IN_ATTRIB) and the device is tried again then.
            throw InputError(.missing, "evdev: \(early.0) is not ready yet (still root's alone: udev has not given it its "
                + "group) to look for \"\(slot.pattern)\" (\(slot.sections))")
        }
        if let denied = denials.first {
            throw InputError(.permission, "evdev: cannot open \(denied.0) to look for \"\(slot.pattern)\" (\(slot.sections)): "
                + "permission denied. Add the service user to the \"input\" group (SupplementaryGroups=input in the unit) "
                + "or run as root")
        }
        if slot.pattern.hasPrefix("/"), let missing = refused.first {
            throw InputError(.missing, "evdev: cannot open \(missing.0) (\(slot.sections)): \(SystemError("open", errno: missing.1).reason). "
                + "Check the path in the board file and that the overlay creating it is loaded")
        }
        let found = seen.isEmpty ? "no input devices at all in \(directory)" : "found " + seen.joined(separator: ", ")
        throw InputError(.missing, "evdev: no input device named \"\(slot.pattern)\" for \(slot.sections); \(found). "
            + "Check the dtoverlay lines (board/README.md) and the names in /proc/bus/input/devices")
    }

    /// Checks the device sends what the board expects, sets the clock, grabs it and starts watching.
    private func adopt(_ device: FileDescriptor, path: String, name: String, for slot: Slot) throws(InputError) {
        let fd = device.rawValue
        for (type, code) in slot.role.needed where !Self.hasCode(fd, type: type, code: code) {
            throw InputError(.unsuitable, "evdev: \"\(name)\" (\(path)) does not send \(EvdevNames.name(type: type, code: code)), "
                + "which the board file gives \(slot.sections); check \"code\" against `evtest \(path)`")
        }
        slot.monotonic = stillroom_evdev_set_clock(fd, CLOCK_MONOTONIC) == 0
        if stillroom_evdev_grab(fd, 1) != 0 {
            let code = errno
            if code == EBUSY {
                throw InputError(.busy, "evdev: \"\(name)\" (\(path)) is grabbed by another program; stop it "
                    + "(`fuser -v \(path)` shows who) so only stillroomd reads \(slot.sections)")
            }
            throw InputError(.failed, "evdev: cannot grab \"\(name)\" (\(path)): \(SystemError("EVIOCGRAB", errno: code).reason)")
        }
        let watch: IOWatch
        do {
            watch = try loop.watch(fd, for: .readable) { [unowned self, unowned slot] _ in readable(slot) }
        } catch {
            _ = stillroom_evdev_grab(fd, 0)
            throw InputError(.failed, "evdev: cannot watch \(path): \(error)")
        }
        slot.device = device
        slot.path = path
        slot.watch = watch
        slot.reader = EvdevRecordReader()
        slot.interpreter = EvdevInterpreter(role: slot.role)
        if let axis = slot.role.axis, axis.type == EvdevNames.typeAbsolute {
            var value: Int32 = 0, minimum: Int32 = 0, maximum: Int32 = 0
            if stillroom_evdev_abs(fd, UInt32(axis.code), &value, &minimum, &maximum) == 0 {
                slot.interpreter.absolutePosition = value
                slot.interpreter.absoluteRange = minimum <= maximum ? minimum...maximum : nil
            }
        }
    }

    /// Adds the slot's controls to the decoder with the device's state now; returns the jack's first event.
    private func setUpDecoder(for slot: Slot) -> [InputEvent] {
        let held = Self.bits(slot.fd, count: Int(EvdevNames.keyMax) + 1) { stillroom_evdev_keys($0, $1, $2) }
        for (code, control) in slot.role.keys {
            decoder.addButton(control, board.button(control).debouncer, heldAtStart: evdevBit(held, Int(code)))
        }
        if slot.role.axis != nil { decoder.addSteppedKnob(reversed: board.knobTurn.reversed) }
        if let code = slot.role.jackSwitch {
            let switches = Self.bits(slot.fd, count: Int(EvdevNames.switchMax) + 1) { stillroom_evdev_switches($0, $1, $2) }
            return decoder.addJack(debounce: board.jack.debounce, connected: evdevBit(switches, Int(code)), at: loop.now)
        }
        return []
    }

    private func close(_ slot: Slot) {
        slot.watch?.cancel()
        slot.watch = nil
        if let device = slot.device {
            _ = stillroom_evdev_grab(device.rawValue, 0) // ENODEV when it is gone: nothing to let go of
            device.close()
        }
        slot.device = nil
    }

    // MARK: Reading

    private func readable(_ slot: Slot) {
        var events: [InputEvent] = []
        drain(slot, into: &events)
        deliver(events)
    }

    /// Reads everything the device has queued and feeds it through the decoder.
    private func drain(_ slot: Slot, into events: inout [InputEvent]) {
        guard slot.fd >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: EvdevRecordReader.recordSize * 64)
        while true {
            let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { Glibc.read(slot.fd, $0.baseAddress, $0.count) } }
            if count > 0 {
                let raw = slot.reader.events(from: buffer[..<count])
                for reading in slot.interpreter.readings(for: raw) { events += apply(reading, from: slot) }
                continue
            }
            if count < 0 && errno == EAGAIN { return }
            // ENODEV (or end of file): the device went away.
            deviceGone(slot, into: &events)
            return
        }
    }

    private func apply(_ reading: EvdevReading, from slot: Slot) -> [InputEvent] {
        // Without a monotonic clock on the device (very old kernels) its times cannot be compared with ours.
        func time(_ instant: MonotonicInstant) -> MonotonicInstant { slot.monotonic ? instant : loop.now }
        switch reading {
        case .button(let control, let pressed, let at): return decoder.button(control, pressed: pressed, at: time(at))
        case .steps(let count, let at): return decoder.steps(count, at: time(at))
        case .jack(let connected, let at): return decoder.jack(connected: connected, at: time(at))
        case .resynchronize:
            onNotice?(InputNotice(.warning, "evdev: \(slot.path ?? slot.pattern) dropped events; state read again"))
            return resynchronize(slot)
        }
    }

    /// After SYN_DROPPED: read which keys are held and where the switch is, and feed that as the levels.
    private func resynchronize(_ slot: Slot) -> [InputEvent] {
        var events: [InputEvent] = []
        let now = loop.now
        let held = Self.bits(slot.fd, count: Int(EvdevNames.keyMax) + 1) { stillroom_evdev_keys($0, $1, $2) }
        for (code, control) in slot.role.keys.sorted(by: { $0.key < $1.key }) {
            events += decoder.button(control, pressed: evdevBit(held, Int(code)), at: now)
        }
        if let code = slot.role.jackSwitch {
            let switches = Self.bits(slot.fd, count: Int(EvdevNames.switchMax) + 1) { stillroom_evdev_switches($0, $1, $2) }
            events += decoder.jack(connected: evdevBit(switches, Int(code)), at: now)
        }
        return events
    }

    private func deviceGone(_ slot: Slot, into events: inout [InputEvent]) {
        onNotice?(InputNotice(.warning, "evdev: \(slot.path ?? slot.pattern) (\(slot.sections)) went away; "
            + "waiting for it to come back"))
        close(slot)
        // Whatever was held on it is let go, so nothing stays pressed (no long press from a vanished key).
        for control in slot.role.keys.values.sorted(by: { $0.rawValue < $1.rawValue }) {
            events += decoder.button(control, pressed: false, at: loop.now)
        }
        armTimer()
    }

    // MARK: Devices coming back

    private func watchDirectory() throws(InputError) {
        guard slots.contains(where: { !$0.pattern.hasPrefix("/") || $0.pattern.hasPrefix(directory + "/") }) else { return }
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            throw InputError(.failed, "evdev: \(SystemError("inotify_init1"))")
        }
        let descriptor = FileDescriptor(adopting: fd) // closed here when the watch below fails
        if !watchDevicesDirectory(fd) {
            // No input device at all yet, so no /dev/input: watch its parent until the directory appears.
            let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
            parentWatch = errno == ENOENT ? inotify_add_watch(fd, parent.isEmpty ? "/" : parent, UInt32(IN_CREATE)) : -1
            guard parentWatch >= 0 else {
                let error = SystemError("inotify_add_watch", path: directory)
                descriptor.close()
                throw InputError(.failed, "evdev: cannot watch \(directory) for devices coming back: \(error.reason)")
            }
        }
        inotify = descriptor
        do {
            inotifyWatch = try loop.watch(fd, for: .readable) { [unowned self] _ in directoryChanged() }
        } catch {
            throw InputError(.failed, "evdev: cannot watch the inotify descriptor: \(error)")
        }
    }

    /// Watches the devices' directory for nodes created or made readable; false (errno set) when it cannot.
    private func watchDevicesDirectory(_ fd: Int32) -> Bool {
        watchingDirectory = inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_ATTRIB)) >= 0
        return watchingDirectory
    }

    private func directoryChanged() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        guard let inotify else { return }
        while retryingOnInterrupt({ buffer.withUnsafeMutableBytes { Glibc.read(inotify.rawValue, $0.baseAddress, $0.count) } }) > 0 {}
        // The directory appeared under its parent: watch it (its nodes may already be there: looked at below).
        if !watchingDirectory {
            guard watchDevicesDirectory(inotify.rawValue) else { return }
            _ = inotify_rm_watch(inotify.rawValue, parentWatch) // the rest of /dev is none of our business
            parentWatch = -1
        }
        var events: [InputEvent] = []
        for slot in slots where slot.fd < 0 {
            let seenBefore = slot.path != nil
            try? open(slot, required: false)
            guard slot.fd >= 0 else { continue }
            onNotice?(InputNotice(.info, "evdev: \(slot.path ?? slot.pattern) (\(slot.sections)) is "
                + (seenBefore ? "back" : "here: the controls on it work from now on")))
            events += resynchronize(slot)
        }
        deliver(events)
    }

    // MARK: Timer and delivery

    private func timerFired() {
        var events: [InputEvent] = []
        // Read first: an edge that happened before now must not be overtaken by its debounce timer.
        for slot in slots { drain(slot, into: &events) }
        events += decoder.timerFired(at: loop.now)
        deliver(events)
    }

    private func deliver(_ events: [InputEvent]) {
        for event in events { handler?(event) }
        armTimer()
    }

    private func armTimer() {
        if let wake = decoder.wakeAt { timer?.schedule(at: wake) } else { timer?.cancel() }
    }

    // MARK: ioctl helpers

    /// A node as devtmpfs makes it, before udev's rules have run: owned by root, group root, no access for
    /// group or others. Refused such a node, the daemon waits for udev; refused a node that udev has
    /// given a group (input) the service is not in, it says how to fix the unit.
    public static func udevHasNotSetUp(_ node: stat?) -> Bool {
        guard let node else { return false }
        return node.st_uid == 0 && node.st_gid == 0 && node.st_mode & 0o077 == 0
    }

    static func eventNodes(in directory: String) -> [String] {
        let names = ((try? Files.listDirectory(directory)) ?? []).filter { $0.hasPrefix("event") && Int($0.dropFirst(5)) != nil }
        return names.sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }.map { directory + "/" + $0 }
    }

    static func deviceName(_ fd: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard stillroom_evdev_name(fd, &buffer, buffer.count) >= 0 else { return "?" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func hasCode(_ fd: Int32, type: UInt16, code: UInt16) -> Bool {
        let count = Int(type == EvdevNames.typeKey ? EvdevNames.keyMax : 0x3f) + 1
        let bits = Self.bits(fd, count: count) { stillroom_evdev_bits($0, UInt32(type), $1, $2) }
        return evdevBit(bits, Int(code))
    }

    static func bits(_ fd: Int32, count: Int, _ call: (Int32, UnsafeMutablePointer<UInt8>, Int) -> Int32) -> [UInt8] {
        var bits = [UInt8](repeating: 0, count: (count + 7) / 8)
        let result = bits.withUnsafeMutableBufferPointer { call(fd, $0.baseAddress!, $0.count) }
        return result < 0 ? [] : bits
    }
}
