import StillroomCore
import Devices

/// The sentences the GPIO backend fails with: each names the chip, the line and the board-file section,
/// and says what to do. Kept pure so every one is tested as written.
public enum GPIOMessages {
    /// The udev rule that gives /dev/gpiochip* to the gpio group (shipped as board/udev/60-stillroom-gpio.rules).
    public static let udevRule = "SUBSYSTEM==\"gpio\", KERNEL==\"gpiochip*\", GROUP=\"gpio\", MODE=\"0660\""

    static let permissionFix = "Add the service user to the \"gpio\" group (SupplementaryGroups=gpio in the unit) and "
        + "install board/udev/60-stillroom-gpio.rules (\(udevRule)), then restart the service"

    /// No chip has any of the labels.
    public static func chipMissing(labels: [String], available: [(name: String, label: String)], line: String,
                                   section: String) -> InputError {
        let found = available.isEmpty ? "there are no GPIO chips at all (is this a Raspberry Pi?)"
            : "the chips here are " + available.map { "\($0.name) [\($0.label)]" }.joined(separator: ", ")
        return InputError(.missing, "gpio: no GPIO chip labelled \(labels.joined(separator: " or ")) for \(line) in "
            + "\(section); \(found). Set \"chip\" in the board file to one of those labels (gpiodetect lists them)")
    }

    /// The chips could not be opened at all: /dev/gpiochip* belongs to root.
    public static func chipPermission(line: String, section: String) -> InputError {
        InputError(.permission, "gpio: cannot open the GPIO chips (/dev/gpiochip*) to find \(line) for \(section): "
            + "permission denied. " + permissionFix)
    }

    /// No line of that name on the chip (or on any chip, when the board file names none).
    public static func lineMissing(name: String, chip: (name: String, label: String)?, section: String) -> InputError {
        let place = chip.map { "on \($0.label) (\($0.name))" } ?? "on any GPIO chip"
        let listing = chip.map { "`gpioinfo \($0.name)`" } ?? "`gpioinfo`"
        return InputError(.missing, "gpio: no line named \(name) \(place) for \(section); \(listing) lists the "
            + "line names. Fix \"line\" in the board file, or give the line's offset and its chip")
    }

    /// The offset is past the chip's last line.
    public static func offsetOutOfRange(_ offset: Int, chip: (name: String, label: String), lines: Int,
                                        section: String) -> InputError {
        InputError(.missing, "gpio: \(chip.label) (\(chip.name)) has \(lines) lines, so there is no offset \(offset) "
            + "for \(section). Fix \"line\" in the board file")
    }

    /// Someone else holds the line.
    public static func busy(line: String, chip: (name: String, label: String), consumer: String?, section: String) -> InputError {
        let holder = consumer.map { " by \"\($0)\"" } ?? ""
        return InputError(.busy, "gpio: \(line) on \(chip.label) (\(chip.name)) for \(section) is already in use\(holder). "
            + "Stop the other program (`gpioinfo \(chip.name)` shows the holder), or remove the dtoverlay that claims "
            + "this pin (a gpio-key, rotary-encoder or gpio-shutdown overlay in /boot/firmware/config.txt)")
    }

    /// The request was refused for permission.
    public static func requestPermission(line: String, chip: (name: String, label: String), section: String) -> InputError {
        InputError(.permission, "gpio: cannot request \(line) on \(chip.label) (\(chip.name)) for \(section): "
            + "permission denied. " + permissionFix)
    }

    /// The kernel refused the bias (pull-up) flags: too old, or the driver cannot set pulls.
    public static func biasRefused(line: String, chip: (name: String, label: String), bias: Bias, section: String) -> InputError {
        InputError(.failed, "gpio: the kernel refused bias = \(bias.rawValue) for \(line) on \(chip.label) (\(chip.name)) "
            + "in \(section) (line bias needs Linux 5.5 or later and a driver that supports it). Set bias = as-is in "
            + "the board file and fit external pull resistors, or set the pull in config.txt (gpio=N=ip,pu)")
    }

    /// Anything else.
    public static func failed(_ operation: String, line: String, chip: (name: String, label: String)?, section: String,
                              reason: String) -> InputError {
        let place = chip.map { " on \($0.label) (\($0.name))" } ?? ""
        return InputError(.failed, "gpio: \(operation) \(line)\(place) for \(section) failed: \(reason)")
    }
}
