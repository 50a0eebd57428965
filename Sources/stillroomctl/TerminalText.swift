import StillroomCore

/// Text made safe for a terminal. What stillroomctl prints comes partly from content (transcripts, titles,
/// licences, download errors) and from the daemon's messages, which may echo it; an ESC there could recolour
/// or clear the screen, retitle the window or, on some terminals, answer back with keystrokes; a bidi
/// override (U+202E) could make a line read as something it is not. Every such character
/// (`isTerminalHazard`: C0, DEL, C1, the bidi controls) is shown escaped, `\u{001B}`, as the content
/// problem messages show them; only newline, tab and the CR of a CRLF (the CSV export's line ends) pass.
enum TerminalText {
    static func safe(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: isTerminalHazard) else { return text }
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            let keptLineEnd = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
            if isTerminalHazard(scalar) && scalar != "\n" && scalar != "\t" && !keptLineEnd {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: "\\u{\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

}
