/// Reads a board file (docs/board.md): `[section]` headers, `key = value` lines, `#` comments.
///
/// Strict on purpose: a box in the dark cannot tell its owner that a pin is wrong, so every mistake the
/// file can hold is found here, all at once, each with its line and what to write instead — unknown
/// sections and keys (with a suggestion for a near miss), bad values, missing sections and keys, a key or
/// section given twice, one line used by two controls, a chip named by number.
public enum BoardFileParser {
    static let sectionOrder = ["board", "play", "back", "knob-turn", "knob-press", "jack"]

    /// Parses `text`; `fileName` is used in messages.
    public static func parse(_ text: String, fileName: String = "board.conf") throws(BoardFileRejected) -> Board {
        var context = Context(fileName: fileName)
        let sections = context.readSections(text)
        let board = context.build(sections, lineCount: splitIntoLines(text).count)
        if let board, context.problems.isEmpty { return board }
        let ordered = context.problems.enumerated().sorted { first, second in
            switch (first.element.line, second.element.line) {
            case let (a?, b?): return a != b ? a < b : first.offset < second.offset
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return first.offset < second.offset
            }
        }.map(\.element)
        throw BoardFileRejected(problems: ordered)
    }
}

/// One `key = value` line.
struct BoardEntry {
    var value: String
    var line: Int
}

/// A section as read: its header line and entries in order.
struct BoardSection {
    var name: String
    var line: Int
    var entries: [String: BoardEntry] = [:]
}

extension BoardFileParser {
    struct Context {
        let fileName: String
        var problems: [BoardFileProblem] = []

        init(fileName: String) { self.fileName = fileName }

        mutating func problem(_ line: Int?, _ message: String) {
            problems.append(BoardFileProblem(fileName: fileName, line: line, message: message))
        }

        // MARK: Lines to sections

        mutating func readSections(_ text: String) -> [String: BoardSection] {
            var sections: [String: BoardSection] = [:]
            var current: String?
            var sawHeader = false
            let knownList = sectionOrder.map { "[\($0)]" }.joined(separator: ", ")
            for (index, raw) in splitIntoLines(text).enumerated() {
                let number = index + 1
                let line = Self.stripComment(raw).trimmedSpaces
                if line.isEmpty { continue }
                if line.unicodeScalars.contains(where: isControl) {
                    problem(number, "control characters are not allowed: \(quotedForMessage(line))")
                    continue
                }
                if line.hasPrefix("[") {
                    sawHeader = true
                    guard line.hasSuffix("]"), line.count > 2 else {
                        problem(number, "expected a section header like [play], found \(quotedForMessage(line))")
                        current = nil
                        continue
                    }
                    let name = String(line.dropFirst().dropLast()).trimmedSpaces
                    guard sectionOrder.contains(name) else {
                        problem(number, "unknown section [\(name)]; the sections are \(knownList)"
                            + suggestion(for: name, among: sectionOrder, brackets: true))
                        current = nil
                        continue
                    }
                    if let earlier = sections[name] {
                        problem(number, "section [\(name)] again; it began on line \(earlier.line)")
                        current = nil // its keys are not read twice; the first one stands
                        continue
                    }
                    sections[name] = BoardSection(name: name, line: number)
                    current = name
                    continue
                }
                guard let equals = line.firstIndex(of: "=") else {
                    problem(number, "expected \"[section]\" or \"key = value\", found \(quotedForMessage(line))")
                    continue
                }
                let key = String(line[..<equals]).trimmedSpaces
                var value = String(line[line.index(after: equals)...]).trimmedSpaces
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                guard !key.isEmpty, !key.contains(where: { $0 == " " || $0 == "\t" }) else {
                    problem(number, "expected \"key = value\" with a one-word key, found \(quotedForMessage(line))")
                    continue
                }
                guard let section = current else {
                    if !sawHeader {
                        problem(number, "\"\(key)\" comes before any section; start one with a header like [play]")
                    }
                    // After a bad header its keys are skipped: that header was already reported.
                    continue
                }
                guard !value.isEmpty else {
                    problem(number, "\"\(key)\" has no value")
                    continue
                }
                if let earlier = sections[section]?.entries[key] {
                    problem(number, "\"\(key)\" is set again in [\(section)]; it was set on line \(earlier.line)")
                    continue
                }
                sections[section]?.entries[key] = BoardEntry(value: value, line: number)
            }
            return sections
        }

        /// Drops a `#` comment: at the start of the line, or after white space (so a value may hold `#`).
        static func stripComment(_ line: String) -> Substring {
            var previous: Character = " "
            for index in line.indices {
                let character = line[index]
                if character == "#" && (previous == " " || previous == "\t") { return line[..<index] }
                previous = character
            }
            return line[...]
        }

        // MARK: Sections to the board

        mutating func build(_ sections: [String: BoardSection], lineCount: Int) -> Board? {
            var defaults = ChipDefaults()
            var name: String?
            if let section = sections["board"] {
                var reader = SectionReader(section: section, description: "[board]")
                name = reader.take("name")?.value
                if let entry = reader.take("chip") { defaults.chips = chipLabels(entry) }
                reader.reportUnknown(in: &self, known: ["name", "chip"])
            }
            var used = UsedLines()
            func missing(_ section: String, _ hint: String) {
                problem(nil, "missing section [\(section)]; \(hint)")
            }
            var play: ButtonBinding?
            var back: ButtonBinding?
            var knobPress: ButtonBinding?
            var knobTurn: KnobBinding?
            var jack: JackBinding?
            for (sectionName, control) in [("play", Control.play), ("back", .back), ("knob-press", .knob)] {
                guard let section = sections[sectionName] else {
                    missing(sectionName, "write it with \"backend = none\" if the box has no such button")
                    continue
                }
                let binding = button(section, defaults: defaults, used: &used)
                switch control {
                case .play: play = binding
                case .back: back = binding
                case .knob: knobPress = binding
                }
            }
            if let section = sections["knob-turn"] {
                knobTurn = knob(section, defaults: defaults, used: &used)
            } else {
                missing("knob-turn", "write it with \"backend = none\" if the box has no knob")
            }
            if let section = sections["jack"] {
                jack = self.jack(section, defaults: defaults, used: &used)
            } else {
                missing("jack", "write it with \"backend = none\" if the box has no headphone detection")
            }
            guard let play, let back, let knobPress, let knobTurn, let jack else { return nil }
            return Board(name: name, play: play, back: back, knobPress: knobPress, knobTurn: knobTurn, jack: jack)
        }

        mutating func backend(_ reader: inout SectionReader, allowed: [InputBackendKind]) -> InputBackendKind? {
            let names = allowed.map(\.rawValue)
            guard let entry = reader.take("backend") else {
                problem(reader.section.line, "\(reader.description) needs \"backend\" (\(listing(names, "or")))")
                return nil
            }
            guard let kind = InputBackendKind(rawValue: entry.value), allowed.contains(kind) else {
                problem(entry.line, "\"backend\" must be \(listing(names, "or")), not \(quotedForMessage(entry.value))"
                    + suggestion(for: entry.value, among: names))
                return nil
            }
            return kind
        }

        mutating func button(_ section: BoardSection, defaults: ChipDefaults, used: inout UsedLines) -> ButtonBinding? {
            var reader = SectionReader(section: section, description: "[\(section.name)]")
            guard let kind = backend(&reader, allowed: [.gpio, .evdev, .terminal, .none]) else {
                reader.skipAll()
                return nil
            }
            reader.description = "[\(section.name)] (\(kind.rawValue))"
            var source: ButtonBinding.Source?
            var known: [String] = ["backend"]
            var timing = ButtonDebouncer.Configuration()
            var ok = true
            switch kind {
            case .gpio:
                known += ["chip", "line", "active", "bias", "debounce", "long-press", "repeat"]
                let wiring = wiring(&reader, defaults: defaults)
                if let line = gpioLine(&reader, key: "line", wiring: wiring, used: &used, owner: section) {
                    source = .gpio(line)
                }
            case .evdev:
                known += ["device", "code", "debounce", "long-press", "repeat"]
                if let code = evdevCode(&reader, kind: .key, used: &used, owner: section) { source = .evdev(code) }
            case .terminal:
                source = .terminal
            case .none, .alsa:
                source = ButtonBinding.Source.none
            }
            if kind == .gpio || kind == .evdev {
                if let value = duration(&reader, "debounce", within: .zero ... .milliseconds(500)) {
                    timing.debounce = value
                } else if reader.hadBadValue { ok = false }
                if let value = duration(&reader, "long-press", within: .milliseconds(300) ... .seconds(5)) {
                    timing.longPress = value
                } else if reader.hadBadValue { ok = false }
                if let entry = reader.peek("repeat"), entry.value == "off" {
                    _ = reader.take("repeat")
                } else if let value = duration(&reader, "repeat", within: .milliseconds(50) ... .seconds(2), offAllowed: true) {
                    timing.repeatInterval = value
                } else if reader.hadBadValue { ok = false }
            }
            reader.reportUnknown(in: &self, known: known)
            guard let source, ok else { return nil }
            return ButtonBinding(source: source, debouncer: timing)
        }

        mutating func knob(_ section: BoardSection, defaults: ChipDefaults, used: inout UsedLines) -> KnobBinding? {
            var reader = SectionReader(section: section, description: "[knob-turn]")
            guard let kind = backend(&reader, allowed: [.gpio, .evdev, .terminal, .none]) else {
                reader.skipAll()
                return nil
            }
            reader.description = "[knob-turn] (\(kind.rawValue))"
            var known = ["backend"]
            var source: KnobBinding.Source?
            var ratio = 4
            var ok = true
            switch kind {
            case .gpio:
                known += ["chip", "line-a", "line-b", "active", "bias", "detent", "direction"]
                let wiring = wiring(&reader, defaults: defaults)
                let a = gpioLine(&reader, key: "line-a", wiring: wiring, used: &used, owner: section)
                let b = gpioLine(&reader, key: "line-b", wiring: wiring, used: &used, owner: section)
                if let entry = reader.take("detent") {
                    if let value = Int(entry.value), [1, 2, 4].contains(value) {
                        ratio = value
                    } else {
                        problem(entry.line, "\"detent\" must be 1, 2 or 4 (transitions a detent: 4 for most EC11 "
                            + "encoders), not \(quotedForMessage(entry.value))")
                        ok = false
                    }
                }
                if let a, let b { source = .gpio(a: a, b: b) }
            case .evdev:
                known += ["device", "code", "direction"]
                if let code = evdevCode(&reader, kind: .axis, used: &used, owner: section) { source = .evdev(code) }
            case .terminal:
                known += ["direction"]
                source = .terminal
            case .none, .alsa:
                source = KnobBinding.Source.none
            }
            var reversed = false
            if kind != .none, let entry = reader.take("direction") {
                switch entry.value {
                case "normal": reversed = false
                case "reversed": reversed = true
                default:
                    problem(entry.line, "\"direction\" must be normal or reversed, not \(quotedForMessage(entry.value))")
                    ok = false
                }
            }
            reader.reportUnknown(in: &self, known: known)
            guard let source, ok else { return nil }
            return KnobBinding(source: source, transitionsPerDetent: ratio, reversed: reversed)
        }

        mutating func jack(_ section: BoardSection, defaults: ChipDefaults, used: inout UsedLines) -> JackBinding? {
            var reader = SectionReader(section: section, description: "[jack]")
            guard let kind = backend(&reader, allowed: [.gpio, .evdev, .alsa, .terminal, .none]) else {
                reader.skipAll()
                return nil
            }
            reader.description = "[jack] (\(kind.rawValue))"
            var known = ["backend"]
            var source: JackBinding.Source?
            var debounce = Duration.milliseconds(150)
            var ok = true
            switch kind {
            case .gpio:
                known += ["chip", "line", "active", "bias", "debounce"]
                let wiring = wiring(&reader, defaults: defaults, activeRequired: true)
                if let line = gpioLine(&reader, key: "line", wiring: wiring, used: &used, owner: section) {
                    source = .gpio(line)
                }
            case .evdev:
                known += ["device", "code", "debounce"]
                if let code = evdevCode(&reader, kind: .switchCode, used: &used, owner: section) { source = .evdev(code) }
            case .alsa:
                known += ["card", "control"]
                let control = reader.take("control")?.value ?? "Headphone Jack"
                if let card = reader.take("card") {
                    source = .alsa(card: card.value, control: control)
                } else {
                    problem(section.line, "[jack] (alsa) needs \"card\": the sound card's id (as in /proc/asound/cards)")
                }
            case .terminal:
                source = .terminal
            case .none:
                source = JackBinding.Source.none
            }
            if kind == .gpio || kind == .evdev {
                if let value = duration(&reader, "debounce", within: .zero ... .seconds(1)) {
                    debounce = value
                } else if reader.hadBadValue { ok = false }
            }
            reader.reportUnknown(in: &self, known: known)
            guard let source, ok else { return nil }
            return JackBinding(source: source, debounce: debounce)
        }

        // MARK: Values

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

        func reportUnknown(in context: inout Context, known: [String]) {
            for (key, entry) in section.entries.sorted(by: { $0.value.line < $1.value.line }) where !taken.contains(key) {
                let allowed = known.contains(key)
                if allowed { continue } // read by another path (a key valid here but not needed)
                let hint = suggestion(for: key, among: known)
                context.problem(entry.line, "unknown key \"\(key)\" in \(description)" + hint
                    + (hint.isEmpty ? "; its" : " Its") + " keys are \(listing(known, "and"))")
            }
        }
    }
}

// MARK: Helpers

/// "a, b or c".
func listing(_ items: [String], _ conjunction: String) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items[items.count - 1]
}

/// `; did you mean "debounce"?` for a near miss (edit distance at most 2), else "".
func suggestion(for text: String, among candidates: [String], brackets: Bool = false) -> String {
    let lowered = text.lowercased()
    let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }.filter { $0.1 <= 2 && $0.1 > 0 }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else {
        if let exact = candidates.first(where: { $0.lowercased() == lowered && $0 != text }) {
            return brackets ? "; did you mean [\(exact)]?" : "; did you mean \"\(exact)\"?"
        }
        return ""
    }
    return brackets ? "; did you mean [\(best.0)]?" : "; did you mean \"\(best.0)\"?"
}

func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

extension StringProtocol {
    var trimmedSpaces: String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
