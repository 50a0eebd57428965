import StillroomCore

/// Why an input backend cannot read a control: a sentence that names the chip, line or device and says
/// what to do, ready for the log (`<3>`), e.g. `gpio: cannot open GPIO5 on pinctrl-bcm2711 for [play]:
/// permission denied. Add the service user to the "gpio" group and install board/udev/60-stillroom-gpio.rules`.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The chip, line or device does not exist (wrong board file, overlay not loaded, device unplugged).
        case missing
        /// The device exists but is not what the board file says (it does not send the code given).
        case unsuitable
        /// The device exists but this user may not open it (group, udev rule).
        case permission
        /// Someone else holds it (another process, or a kernel driver such as gpio-keys).
        case busy
        /// Anything else the kernel or library refused.
        case failed
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Something worth a log line that does not stop the backend: a device gone and back, a lost edge.
public struct InputNotice: Equatable, Sendable, CustomStringConvertible {
    public enum Level: Sendable {
        /// Worth knowing (a device came back).
        case info
        /// Something is wrong but input goes on (a device went away, events were dropped).
        case warning
    }

    public let level: Level
    public let message: String

    public init(_ level: Level, _ message: String) {
        self.level = level
        self.message = message
    }

    public var description: String { message }
}

/// A source of `InputEvent`s driven by the event loop: libgpiod, evdev, the terminal, a script.
///
/// Contract: `start` opens everything the backend needs (all or nothing: when it throws, nothing stays
/// open) and from then on calls `handler` on the loop's thread with events in the order they happened.
/// A hardware backend also sends the headphone switch's state at start (`.jack`), so the box knows it
/// without waiting for a change. `stop` releases everything and may be called more than once; after it,
/// no more events arrive. Backends are built with the loop they run on and the board they read.
public protocol InputBackend: AnyObject {
    /// A short name for logs: "gpio", "evdev", "terminal", "scripted".
    var name: String { get }
    /// Receives notices that are not failures (a device removed and back); on the loop's thread.
    var onNotice: ((InputNotice) -> Void)? { get set }

    /// The controls waiting for a device that is not there (not yet, or gone), by device: shown while
    /// any wait, so a box whose buttons do not answer says why.
    var missingControls: [MissingControls] { get }

    func start(_ handler: @escaping (InputEvent) -> Void) throws(InputError)
    func stop()
}

extension InputBackend {
    /// A backend that opens everything at start or fails has nothing waiting.
    public var missingControls: [MissingControls] { [] }
}

/// Controls that wait for their device.
public struct MissingControls: Equatable, Sendable {
    /// The board file's sections ("play", "knob-turn"), in the file's order.
    public let sections: [String]
    /// The device as the board file names it.
    public let device: String

    public init(sections: [String], device: String) {
        self.sections = sections
        self.device = device
    }

    /// For the maintainer: `[play], [back] on "gpio-keys"`.
    public var forDoctor: String { sections.map { "[\($0)]" }.joined(separator: ", ") + " on \"\(device)\"" }

    /// For the person at the box: `PLAY, BACK and pressing the knob ("gpio-keys")`.
    public var inWords: String {
        let names = sections.map { section -> String in
            switch section {
            case "play": "PLAY"
            case "back": "BACK"
            case "knob-turn": "turning the knob"
            case "knob-press": "pressing the knob"
            case "jack": "the headphone socket"
            default: section
            }
        }
        let listed = names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names.joined()
        return listed + " (\"\(device)\")"
    }
}
