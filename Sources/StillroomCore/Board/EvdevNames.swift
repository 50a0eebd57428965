/// The Linux input event types and codes the board file can name (linux/input-event-codes.h), so a board
/// file says `code = KEY_PLAYPAUSE` instead of 164. Any key can also be given by number.
public enum EvdevNames {
    public static let typeKey: UInt16 = 0x01
    public static let typeRelative: UInt16 = 0x02
    public static let typeAbsolute: UInt16 = 0x03
    public static let typeSwitch: UInt16 = 0x05

    /// Keys and buttons (EV_KEY) commonly given to gpio-keys.
    public static let keys: [String: UInt16] = [
        "KEY_ESC": 1, "KEY_BACKSPACE": 14, "KEY_ENTER": 28, "KEY_A": 30, "KEY_SPACE": 57, "KEY_F1": 59,
        "KEY_HOME": 102, "KEY_UP": 103, "KEY_LEFT": 105, "KEY_RIGHT": 106, "KEY_DOWN": 108,
        "KEY_MUTE": 113, "KEY_VOLUMEDOWN": 114, "KEY_VOLUMEUP": 115, "KEY_POWER": 116, "KEY_PAUSE": 119,
        "KEY_STOP": 128, "KEY_MENU": 139, "KEY_PROG1": 148, "KEY_PROG2": 149, "KEY_BACK": 158,
        "KEY_NEXTSONG": 163, "KEY_PLAYPAUSE": 164, "KEY_PREVIOUSSONG": 165, "KEY_PLAYCD": 200,
        "KEY_PAUSECD": 201, "KEY_PROG3": 202, "KEY_PROG4": 203, "KEY_PLAY": 207,
        "BTN_0": 0x100, "BTN_1": 0x101, "BTN_2": 0x102, "BTN_3": 0x103, "BTN_4": 0x104,
        "BTN_LEFT": 0x110, "BTN_RIGHT": 0x111, "BTN_MIDDLE": 0x112, "BTN_SELECT": 0x13a, "BTN_START": 0x13b,
        "KEY_OK": 0x160, "KEY_SELECT": 0x161, "KEY_FAVORITES": 0x16c, "KEY_CONTEXT_MENU": 0x1b6,
    ]

    /// The highest key code (KEY_MAX).
    public static let keyMax: UInt16 = 0x2ff

    /// Relative axes (EV_REL): the rotary-encoder driver with `relative_axis` reports REL_X by default.
    public static let relativeAxes: [String: UInt16] = [
        "REL_X": 0x00, "REL_Y": 0x01, "REL_Z": 0x02, "REL_HWHEEL": 0x06, "REL_DIAL": 0x07, "REL_WHEEL": 0x08,
        "REL_MISC": 0x09,
    ]

    /// Absolute axes (EV_ABS): the rotary-encoder driver without `relative_axis` reports a position.
    public static let absoluteAxes: [String: UInt16] = [
        "ABS_X": 0x00, "ABS_Y": 0x01, "ABS_Z": 0x02, "ABS_WHEEL": 0x08, "ABS_MISC": 0x28,
    ]

    /// Switches (EV_SW) a sound card's jack reports.
    public static let switches: [String: UInt16] = [
        "SW_HEADPHONE_INSERT": 0x02, "SW_MICROPHONE_INSERT": 0x04, "SW_LINEOUT_INSERT": 0x06,
        "SW_JACK_PHYSICAL_INSERT": 0x07,
    ]

    /// The highest switch code (SW_MAX).
    public static let switchMax: UInt16 = 0x10

    /// A readable name for logs: the symbolic name where known, else the type and number.
    public static func name(type: UInt16, code: UInt16) -> String {
        let table: [String: UInt16]
        let prefix: String
        switch type {
        case typeKey: (table, prefix) = (keys, "EV_KEY")
        case typeRelative: (table, prefix) = (relativeAxes, "EV_REL")
        case typeAbsolute: (table, prefix) = (absoluteAxes, "EV_ABS")
        case typeSwitch: (table, prefix) = (switches, "EV_SW")
        default: return "type \(type) code \(code)"
        }
        return table.first(where: { $0.value == code })?.key ?? "\(prefix) \(code)"
    }
}
