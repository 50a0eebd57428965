/// Manual pages in roff (man(7)), made from the texts that already say the same thing: a program's
/// `--help` (stillroomctl(1), stillroomd(8)) and a Markdown document (the board file's format,
/// stillroom-board(5), from docs/board.md). One source each, so the page cannot drift from the help; the
/// pages are kept in board/man and checked against these by a test (docs/control.md, "Manual pages").
public struct ManualPage: Equatable, Sendable {
    public var name: String
    public var section: Int
    /// The one line after the name in NAME.
    public var summary: String
    private var body: [String] = []

    public init(name: String, section: Int, summary: String) {
        self.name = name
        self.section = section
        self.summary = summary
    }

    /// The page's text. No date (the same source gives the same page, byte for byte).
    public var text: String {
        var lines = [#".\" Generated from Stillroom's own help text; do not edit: see docs/control.md, "Manual pages"."#,
                     ".TH \(Self.escape(name.uppercased())) \(section) \"\" \"Stillroom\" \"Stillroom manual\"",
                     ".SH NAME", "\(Self.escape(name)) \\- \(Self.escape(summary))"]
        lines += body
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: From --help

    /// A help text as the programs print it: "Usage: …" first, then a description, then blocks under
    /// headings ("Playback:", "Options:"): a heading is a line at the margin ending with a colon; what is
    /// indented under it is kept as it is laid out. A heading named "Options" becomes OPTIONS.
    public mutating func addHelp(_ help: String) {
        var blocks = Self.blocks(of: help)
        if let first = blocks.first, let usage = first.first, usage.hasPrefix("Usage: ") {
            body += [".SH SYNOPSIS", ".nf"] + first.map { Self.escape(String($0.dropFirst(usage == $0 ? 7 : 0))) } + [".fi"]
            blocks.removeFirst()
        }
        body.append(".SH DESCRIPTION")
        for block in blocks {
            let heading = block[0]
            if !heading.hasPrefix(" "), heading.hasSuffix(":"), !heading.dropLast().contains(":") {
                let title = String(heading.dropLast())
                body.append(title == "Options" ? ".SH OPTIONS" : ".SS \(Self.escape(title))")
                if block.count > 1 { body += Self.preformatted(Array(block.dropFirst())) }
            } else if block.allSatisfy({ !$0.hasPrefix(" ") }) {
                body += [".PP", Self.escape(Self.joined(block))]
            } else {
                body += [".PP"] + Self.preformatted(block)
            }
        }
    }

    /// A section of entries, each a head line and its text (a command's own `--help`).
    public mutating func addEntries(_ title: String, _ entries: [(head: String, text: String)]) {
        body.append(".SH \(Self.escape(title.uppercased()))")
        for entry in entries {
            body += [".TP", "\\fB\(Self.escape(entry.head))\\fR"]
            body += entry.text.split(separator: "\n", omittingEmptySubsequences: false).map { Self.escape(String($0)) }
                .flatMap { [$0, ".br"] }.dropLast()
        }
    }

    /// A SEE ALSO section: "stillroomd(8)", … in bold with their sections.
    public mutating func addSeeAlso(_ pages: [String]) {
        body += [".SH SEE ALSO", pages.map { page -> String in
            guard let open = page.firstIndex(of: "(") else { return Self.escape(page) }
            return "\\fB\(Self.escape(String(page[..<open])))\\fR\(page[open...])"
        }.joined(separator: ", ")]
    }

    // MARK: From Markdown

    /// The Markdown the docs are written in, as far as a format document uses it: headings, paragraphs,
    /// lists, fenced code, tables (each row an entry headed by its first cell, the other cells named by
    /// their columns), `code`, **bold** and [links](…). The document's own title (#) is left out: NAME has it.
    public mutating func addMarkdown(_ markdown: String) {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // What comes before the first section is the description.
        if let first = lines.first(where: { !$0.trimmingWhitespace.isEmpty && !$0.hasPrefix("# ") }), !first.hasPrefix("## ") {
            body.append(".SH DESCRIPTION")
        }
        var index = 0
        var paragraph: [String] = []
        func flush() {
            if !paragraph.isEmpty { body += [".PP", Self.inline(Self.joined(paragraph))] }
            paragraph = []
        }
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingWhitespace
            if trimmed.isEmpty {
                flush()
            } else if line.hasPrefix("# ") {
                flush()
            } else if line.hasPrefix("## ") || line.hasPrefix("### ") {
                flush()
                let level = line.hasPrefix("## ") ? ".SH" : ".SS"
                let title = Self.plain(String(line.drop { $0 == "#" }.dropFirst()))
                body.append("\(level) \(Self.escape(level == ".SH" ? title.uppercased() : title))")
            } else if line.hasPrefix("```") {
                flush()
                var code: [String] = []
                index += 1
                while index < lines.count, !lines[index].hasPrefix("```") {
                    code.append(lines[index])
                    index += 1
                }
                body += [".PP"] + Self.preformatted(code.map { "  " + $0 })
            } else if line.hasPrefix("|") {
                flush()
                var rows: [[String]] = []
                while index < lines.count, lines[index].hasPrefix("|") {
                    rows.append(Self.cells(lines[index]))
                    index += 1
                }
                index -= 1
                addTable(rows)
            } else if line.hasPrefix("- ") {
                flush()
                var item = [String(line.dropFirst(2))]
                while index + 1 < lines.count, lines[index + 1].hasPrefix("  "), !lines[index + 1].trimmingWhitespace.isEmpty {
                    index += 1
                    item.append(lines[index].trimmingWhitespace)
                }
                body += [".IP \\(bu 2", Self.inline(Self.joined(item))]
            } else {
                paragraph.append(trimmed)
            }
            index += 1
        }
        flush()
    }

    private mutating func addTable(_ rows: [[String]]) {
        guard rows.count >= 2 else { return }
        let header = rows[0]
        let isSeparator = rows[1].allSatisfy { $0.allSatisfy { $0 == "-" || $0 == ":" } }
        for row in rows.dropFirst(isSeparator ? 2 : 1) where !row.isEmpty {
            body += [".TP", Self.inline(row[0].isEmpty ? "\u{2014}" : row[0], bold: true)]
            let rest = zip(header.dropFirst(), row.dropFirst()).map { column, cell in
                header.count > 2 ? "\(Self.plain(column)): \(cell)" : cell
            }
            body.append(Self.inline(rest.joined(separator: ". ")))
        }
    }

    // MARK: Text

    /// Lines kept as laid out (no filling, no adjusting).
    private static func preformatted(_ lines: [String]) -> [String] {
        [".nf"] + lines.map { escape(String($0.dropFirst(min(2, $0.prefix { $0 == " " }.count)))) } + [".fi"]
    }

    private static func blocks(of text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if String(line).trimmingWhitespace.isEmpty {
                if !current.isEmpty { blocks.append(current) }
                current = []
            } else {
                current.append(String(line))
            }
        }
        if !current.isEmpty { blocks.append(current) }
        return blocks
    }

    private static func joined(_ lines: [String]) -> String {
        lines.map(\.trimmingWhitespace).joined(separator: " ")
    }

    private static func cells(_ row: String) -> [String] {
        var cells = row.split(separator: "|", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace }
        if cells.first == "" { cells.removeFirst() }
        if cells.last == "" { cells.removeLast() }
        return cells
    }

    /// Markdown's emphasis and links taken out, for headings.
    private static func plain(_ text: String) -> String {
        var out = ""
        var skippingLink = false
        var iterator = Array(text).makeIterator()
        while let character = iterator.next() {
            switch character {
            case "`", "*": continue
            case "[": continue
            case "]":
                skippingLink = true
            case "(" where skippingLink:
                while let next = iterator.next(), next != ")" {}
                skippingLink = false
            default:
                skippingLink = false
                out.append(character)
            }
        }
        return out
    }

    /// Escaped for roff, with `code` and **bold** in bold and [a link](…) as its words.
    private static func inline(_ text: String, bold: Bool = false) -> String {
        var out = ""
        var inCode = false
        var inBold = false
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "`" {
                inCode.toggle()
                out += inCode || inBold ? "\\fB" : "\\fR"
            } else if character == "*", index + 1 < characters.count, characters[index + 1] == "*" {
                inBold.toggle()
                out += inBold || inCode ? "\\fB" : "\\fR"
                index += 1
            } else if character == "[", !inCode, let close = characters[index...].firstIndex(of: "]"),
                      close + 1 < characters.count, characters[close + 1] == "(",
                      let end = characters[(close + 1)...].firstIndex(of: ")") {
                out += escape(String(characters[(index + 1)..<close]))
                index = end
            } else {
                out += escape(String(character))
            }
            index += 1
        }
        if inCode || inBold { out += "\\fR" }
        let line = bold ? "\\fB\(out)\\fR" : out
        return line
    }

    /// roff's special characters made plain: the backslash, a dot or quote at the start of a line, and
    /// the hyphen-minus (so `--socket` copies as typed).
    public static func escape(_ text: String) -> String {
        var out = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
