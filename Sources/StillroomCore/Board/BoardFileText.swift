// Text helpers for the board file's messages: lists, near-miss suggestions, trimming.

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
