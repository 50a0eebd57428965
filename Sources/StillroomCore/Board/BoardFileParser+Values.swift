// Values: how a section's lines are wired, and each key's value read and checked.

extension BoardFileParser.Context {
    /// How a section's lines are wired: `chip`, `active` and `bias`, shared by both encoder lines.
    struct Wiring {
        var chips: [String]
        var activeLow: Bool
        var bias: Bias
        var ok: Bool
    }

    /// Reads `chip`, `active` and `bias`. `activeRequired`: `active` has no default (the jack).
    mutating func wiring(_ reader: inout SectionReader, defaults: ChipDefaults, activeRequired: Bool = false) -> Wiring {
        var wiring = Wiring(chips: defaults.chips, activeLow: true, bias: .pullUp, ok: true)
        if let entry = reader.take("chip") {
            wiring.chips = chipLabels(entry)
            if wiring.chips.contains("") { wiring.ok = false }
        }
        if let entry = reader.take("active") {
            switch entry.value {
            case "low": wiring.activeLow = true
            case "high": wiring.activeLow = false
            default:
                problem(entry.line, "\"active\" must be low or high, not \(quotedForMessage(entry.value))")
                wiring.ok = false
            }
        } else if activeRequired {
            problem(reader.section.line, "\(reader.description) needs \"active\": the level the switch pin has "
                + "with headphones in (high or low), which depends on the jack's wiring")
            wiring.ok = false
        }
        if let entry = reader.take("bias") {
            if let value = Bias(rawValue: entry.value) {
                wiring.bias = value
            } else {
                let names = Bias.allCases.map(\.rawValue)
                problem(entry.line, "\"bias\" must be \(listing(names, "or")), not \(quotedForMessage(entry.value))"
                    + suggestion(for: entry.value, among: names))
                wiring.ok = false
            }
        }
        return wiring
    }

    /// The GPIO line named by `key`, wired as `wiring` says.
    mutating func gpioLine(_ reader: inout SectionReader, key: String, wiring: Wiring, used: inout UsedLines,
                           owner: BoardSection) -> GPIOLine? {
        guard let entry = reader.take(key) else {
            problem(owner.line, "\(reader.description) needs \"\(key)\": the GPIO line's name (as GPIO17) or "
                + "its offset on the chip")
            return nil
        }
        let reference: GPIOLine.Reference
        if let offset = Int(entry.value) {
            guard offset >= 0, offset < 1024 else {
                problem(entry.line, "\"\(key)\" offset \(entry.value) is out of range (0 to 1023)")
                return nil
            }
            reference = .offset(offset)
            if wiring.chips.isEmpty {
                problem(entry.line, "\"\(key)\" = \(offset) is an offset, which needs a chip: set \"chip\" here "
                    + "or in [board], or name the line (as GPIO\(offset))")
                return nil
            }
        } else {
            guard !entry.value.contains(where: { $0 == " " || $0 == "\t" || $0 == "," }) else {
                problem(entry.line, "\"\(key)\" must be one line's name (as GPIO17) or offset, not "
                    + quotedForMessage(entry.value))
                return nil
            }
            reference = .name(entry.value)
        }
        if let earlier = used.claim(.gpio(chips: wiring.chips, line: reference), by: owner, at: entry.line) {
            problem(entry.line, "\(reference) is already used by \(earlier)")
            return nil
        }
        guard wiring.ok else { return nil }
        return GPIOLine(chips: wiring.chips, line: reference, activeLow: wiring.activeLow, bias: wiring.bias)
    }

    mutating func chipLabels(_ entry: BoardEntry) -> [String] {
        let labels = entry.value.split(separator: ",").map { String($0).trimmedSpaces }
        for label in labels {
            if label.isEmpty {
                problem(entry.line, "\"chip\" has an empty label; separate labels with commas")
                return [""]
            }
            let digits = label.drop(while: { !$0.isNumber })
            let looksNumbered = label.hasPrefix("/dev/") || Int(label) != nil
                || (label.hasPrefix("gpiochip") && !digits.isEmpty && digits.allSatisfy(\.isNumber))
            if looksNumbered {
                problem(entry.line, "\"chip\" must name chips by label (as pinctrl-bcm2711: gpiodetect shows it "
                    + "in brackets), not \(quotedForMessage(label)): chip numbers change between kernels and boots")
                return [""]
            }
        }
        return labels
    }

    enum EvdevKind { case key, axis, switchCode }

    mutating func evdevCode(_ reader: inout SectionReader, kind: EvdevKind, used: inout UsedLines,
                            owner: BoardSection) -> EvdevCode? {
        let device = reader.take("device")
        if device == nil {
            problem(owner.line, "\(reader.description) needs \"device\": the input device's name (as "
                + "/proc/bus/input/devices shows it; * matches anything) or a path under /dev/input")
        }
        let codeEntry = reader.take("code")
        var type: UInt16
        var code: UInt16?
        switch kind {
        case .key:
            type = EvdevNames.typeKey
            if let codeEntry {
                if let value = EvdevNames.keys[codeEntry.value] {
                    code = value
                } else if let value = UInt16(codeEntry.value), value > 0, value <= EvdevNames.keyMax {
                    code = value
                } else {
                    problem(codeEntry.line, "\"code\" must be a key (as KEY_PLAYPAUSE, KEY_BACK, KEY_ENTER, "
                        + "BTN_0) or a key number from 1 to \(EvdevNames.keyMax), not \(quotedForMessage(codeEntry.value))"
                        + suggestion(for: codeEntry.value, among: Array(EvdevNames.keys.keys).sorted()))
                }
            } else {
                problem(owner.line, "\(reader.description) needs \"code\": the key the device reports (as KEY_PLAYPAUSE)")
            }
        case .axis:
            type = EvdevNames.typeRelative
            let value = codeEntry?.value ?? "REL_X"
            if let relative = EvdevNames.relativeAxes[value] {
                code = relative
            } else if let absolute = EvdevNames.absoluteAxes[value] {
                type = EvdevNames.typeAbsolute
                code = absolute
            } else if let codeEntry {
                let names = (Array(EvdevNames.relativeAxes.keys) + Array(EvdevNames.absoluteAxes.keys)).sorted()
                problem(codeEntry.line, "\"code\" must be an axis: \(listing(names, "or")), not "
                    + quotedForMessage(codeEntry.value) + suggestion(for: codeEntry.value, among: names))
            }
        case .switchCode:
            type = EvdevNames.typeSwitch
            let value = codeEntry?.value ?? "SW_HEADPHONE_INSERT"
            if let named = EvdevNames.switches[value] {
                code = named
            } else if let codeEntry {
                let names = Array(EvdevNames.switches.keys).sorted()
                problem(codeEntry.line, "\"code\" must be a switch: \(listing(names, "or")), not "
                    + quotedForMessage(codeEntry.value) + suggestion(for: codeEntry.value, among: names))
            }
        }
        guard let device, let code else { return nil }
        let made = EvdevCode(device: device.value, type: type, code: code)
        if let earlier = used.claim(.evdev(device: device.value, type: type, code: code), by: owner,
                                    at: codeEntry?.line ?? device.line) {
            problem(codeEntry?.line ?? device.line, "\(EvdevNames.name(type: type, code: code)) on \"\(device.value)\" "
                + "is already used by \(earlier)")
            return nil
        }
        return made
    }

    /// A duration `key` if present and valid; sets `reader.hadBadValue` when present but bad.
    mutating func duration(_ reader: inout SectionReader, _ key: String, within range: ClosedRange<Duration>,
                           offAllowed: Bool = false) -> Duration? {
        reader.hadBadValue = false
        guard let entry = reader.take(key) else { return nil }
        guard let value = Self.parseDuration(entry.value) else {
            problem(entry.line, "\"\(key)\" must be a duration like 20ms or 1.5s\(offAllowed ? ", or off" : ""), "
                + "not \(quotedForMessage(entry.value))")
            reader.hadBadValue = true
            return nil
        }
        guard range.contains(value) else {
            problem(entry.line, "\"\(key)\" must be between \(Self.format(range.lowerBound)) and "
                + "\(Self.format(range.upperBound)), not \(entry.value)")
            reader.hadBadValue = true
            return nil
        }
        return value
    }

    /// `20ms`, `0ms`, `1s`, `1.5s`.
    static func parseDuration(_ text: String) -> Duration? {
        if text.hasSuffix("ms") {
            let number = text.dropLast(2)
            guard !number.isEmpty, number.allSatisfy(\.isASCIIDigit), let value = Int(number), value <= 600_000 else {
                return nil
            }
            return .milliseconds(value)
        }
        if text.hasSuffix("s") {
            let number = text.dropLast()
            let parts = number.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
                  let whole = Int(parts[0]), whole <= 600 else { return nil }
            var milliseconds = whole * 1000
            if parts.count == 2 {
                let fraction = parts[1]
                guard fraction.count <= 3, let value = Int(fraction) else { return nil }
                milliseconds += value * [100, 10, 1][fraction.count - 1]
            }
            return .milliseconds(milliseconds)
        }
        return nil
    }

    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.totalNanoseconds / 1_000_000
        return milliseconds % 1000 == 0 && milliseconds > 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}

/// The default chips from [board].
struct ChipDefaults {
    var chips: [String] = []
}

/// Which control claimed which line or event, to refuse one line for two controls.
struct UsedLines {
    enum Key: Hashable {
        case gpio(chips: [String], line: GPIOLine.Reference)
        case evdev(device: String, type: UInt16, code: UInt16)
    }
    private var owners: [Key: String] = [:]

    /// Claims `key` for `owner`; returns who had it already ("[play] on line 4").
    mutating func claim(_ key: Key, by owner: BoardSection, at line: Int) -> String? {
        if let earlier = owners[key] { return earlier }
        owners[key] = "[\(owner.name)] on line \(line)"
        return nil
    }
}

/// Takes keys from a section one by one, so the unknown ones are what is left.
struct SectionReader {
    let section: BoardSection
    var description: String
    private var taken: Set<String> = []
    var hadBadValue = false

    init(section: BoardSection, description: String) {
        self.section = section
        self.description = description
    }

    mutating func take(_ key: String) -> BoardEntry? {
        taken.insert(key)
        return section.entries[key]
    }

    func peek(_ key: String) -> BoardEntry? { section.entries[key] }

    /// Marks everything as read (after a bad backend, its other keys are not judged).
    mutating func skipAll() { taken.formUnion(section.entries.keys) }

    func reportUnknown(in context: inout BoardFileParser.Context, known: [String]) {
        for (key, entry) in section.entries.sorted(by: { $0.value.line < $1.value.line }) where !taken.contains(key) {
            let allowed = known.contains(key)
            if allowed { continue } // read by another path (a key valid here but not needed)
            let hint = suggestion(for: key, among: known)
            context.problem(entry.line, "unknown key \"\(key)\" in \(description)" + hint
                + (hint.isEmpty ? "; its" : " Its") + " keys are \(listing(known, "and"))")
        }
    }
}
