// Helpers that render untrusted values inside one-line problem messages. Content files may be hostile
// or simply broken; a message must stay one readable line whatever they contain.

/// `"value"` with quotes, backslashes and control characters escaped and long values shortened,
/// so a hostile value cannot forge extra log lines or flood one.
func quotedForMessage(_ value: String, limit: Int = 48) -> String {
    var rendered = ""
    var count = 0
    for scalar in value.unicodeScalars {
        if count == limit {
            rendered += "…"
            break
        }
        switch scalar {
        case "\"": rendered += "\\\""
        case "\\": rendered += "\\\\"
        case "\n": rendered += "\\n"
        case "\r": rendered += "\\r"
        case "\t": rendered += "\\t"
        default:
            if isTerminalHazard(scalar) {
                rendered += "\\u{\(hexDigits(scalar.value, width: 4))}"
            } else {
                rendered.unicodeScalars.append(scalar)
            }
        }
        count += 1
    }
    return "\"\(rendered)\""
}

/// "U+0430 'а'" for a visible scalar, "U+0000" for a control character (never printed raw).
func scalarName(_ scalar: Unicode.Scalar) -> String {
    let code = "U+\(hexDigits(scalar.value, width: 4))"
    if isControl(scalar) || scalar.properties.generalCategory == .format { return code }
    return "\(code) '\(Character(scalar))'"
}

/// Unicode general category Cc: C0 controls, DEL and C1 controls.
func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
}

/// Never written raw to a terminal or a log: the control characters (C0, DEL, C1: some terminals obey
/// C1), the bidirectional formatting characters, which reorder what follows on the line and can make a
/// transcript or an error read as something else ("Trojan Source": U+202A–U+202E, U+2066–U+2069,
/// U+200E, U+200F, U+061C), and the line and paragraph separators, which some terminals break on.
public func isTerminalHazard(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F..<0xA0, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
    default: false
    }
}

/// True when `text` holds a control character (line breaks and tabs included).
func containsControlCharacter(_ text: String) -> Bool {
    text.unicodeScalars.contains(where: isControl)
}

/// Upper-case hexadecimal, zero-padded to `width` digits.
func hexDigits(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// A number the way a person wrote it: whole numbers without ".0", others with at most three decimals.
/// FoundationEssentials has no `String(format:)`, and messages should not show binary noise like 0.30000000000000004.
func formatNumberForMessage(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    if value.rounded() == value && abs(value) < 1e15 { return String(Int(value)) }
    let thousandths = (value * 1000).rounded() / 1000
    if abs(thousandths) >= 1e15 { return "\(value)" }
    return thousandths.rounded() == thousandths ? String(Int(thousandths)) : "\(thousandths)"
}
