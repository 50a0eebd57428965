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
    }
}
