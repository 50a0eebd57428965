/// Splits text into lines the way WebVTT does: CRLF, LF and a lone CR each end a line (and only those:
/// U+2028 and friends are ordinary characters here). A text ending in a line break yields a final "".
func splitIntoLines(_ text: String) -> [String] {
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    var previousWasCarriageReturn = false
    for scalar in text.unicodeScalars {
        if previousWasCarriageReturn {
            previousWasCarriageReturn = false
            if scalar == "\n" { continue } // the LF of a CRLF: the line already ended at the CR
        }
        switch scalar {
        case "\r":
            lines.append(String(current))
            current = String.UnicodeScalarView()
            previousWasCarriageReturn = true
        case "\n":
            lines.append(String(current))
            current = String.UnicodeScalarView()
        default:
            current.append(scalar)
        }
    }
    lines.append(String(current))
    return lines
}
