// Sections to the board: each section's keys read into its binding, with every mistake reported.

extension BoardFileParser.Context {
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
}
