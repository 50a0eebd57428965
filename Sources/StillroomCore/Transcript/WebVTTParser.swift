import FoundationEssentials

// A strict reader for the transcripts the box ships and downloads. It follows the WebVTT format's
// authoring rules rather than the browser's forgiving recovery: a transcript that a person reads in the
// dark should fail loudly at build time, with a line number, instead of silently losing a cue.

/// Parses WebVTT transcripts into a `Transcript`.
///
/// Accepted: a `WEBVTT` header line (after an optional byte-order mark; optional text after a space or
/// tab) and header lines up to the first blank line; CRLF, LF or CR line endings; blocks separated by
/// blank lines; NOTE, STYLE and REGION blocks (skipped); cues with an optional identifier line, a timing
/// line `start --> end [settings]` and one or more lines of text.
public enum WebVTTParser {
    // Limits. A transcript is read on the box's one thread and its cues are shaped by pango for the screen;
    // a downloaded file may be anything. These are far above any real transcript (a cue is what is said in
    // a few seconds; an hour of continuous captions is about 1 200 cues and 60 kB) and far below what would
    // stall the loop.

    /// The largest file read, in bytes (512 KiB).
    public static let maximumBytes = 512 * 1024
    /// The most cues a transcript may have.
    public static let maximumCues = 5_000
    /// The longest a cue's text may be, in characters (markup included): about a minute of speech.
    public static let maximumCueCharacters = 1_000

    /// - Parameter fileName: how errors name the file ("transcript.vtt").
    /// - Throws: `WebVTTError` for the first problem, with its line number.
    public static func parse(_ data: Data, fileName: String) throws(WebVTTError) -> Transcript {
        try parse([UInt8](data), fileName: fileName)
    }

    /// Same as `parse(_:fileName:)` for bytes held in an array.
    public static func parse(_ bytes: [UInt8], fileName: String) throws(WebVTTError) -> Transcript {
        guard bytes.count <= maximumBytes else { throw WebVTTError(fileName: fileName, line: 1, kind: .fileTooLarge(bytes: bytes.count)) }
        let withoutByteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        // Invalid UTF-8 becomes U+FFFD, as the format prescribes; it is text, not a reason to refuse.
        let lines = splitIntoLines(String(decoding: withoutByteOrderMark, as: UTF8.self))
        var reader = BlockReader(lines: lines, fileName: fileName)
        return Transcript(cues: try reader.readCues())
    }
}

/// Walks the lines block by block. Line numbers are 1-based: `lines[i]` is line `i + 1`.
private struct BlockReader {
    let lines: [String]
    let fileName: String
    var index = 0

    func error(atIndex lineIndex: Int, _ kind: WebVTTError.Kind) -> WebVTTError {
        WebVTTError(fileName: fileName, line: lineIndex + 1, kind: kind)
    }

    mutating func readCues() throws(WebVTTError) -> [TranscriptCue] {
        try readHeader()
        var cues: [TranscriptCue] = []
        var previousStartText = ""
        while let block = nextBlock() {
            let first = lines[block.lowerBound]
            if let keyword = ["NOTE", "STYLE", "REGION"].first(where: { startsWithKeyword(first, $0) }) {
                if let arrowIndex = block.first(where: { lines[$0].contains("-->") }) {
                    throw error(atIndex: arrowIndex, .arrowInBlock(keyword: keyword))
                }
                continue
            }
            let (cue, startText) = try readCue(block)
            let timingIndex = cue.identifier == nil ? block.lowerBound : block.lowerBound + 1
            if let previous = cues.last, cue.start < previous.start {
                throw error(atIndex: timingIndex, .cueOutOfOrder(start: startText, previousStart: previousStartText))
            }
            guard cues.count < WebVTTParser.maximumCues else { throw error(atIndex: timingIndex, .tooManyCues) }
            cues.append(cue)
            previousStartText = startText
        }
        return cues
    }

    /// Line 1 is `WEBVTT`, alone or followed by a space or tab and free text; the header block then runs
    /// to the first blank line (its lines are metadata the box does not use).
    private mutating func readHeader() throws(WebVTTError) {
        guard let first = lines.first, startsWithKeyword(first, "WEBVTT") else {
            throw error(atIndex: 0, .missingHeader)
        }
        index = 1
        while index < lines.count && !lines[index].isEmpty {
            if lines[index].contains("-->") { throw error(atIndex: index, .missingBlankLineAfterHeader) }
            index += 1
        }
    }

    /// The next run of non-blank lines, as indices into `lines`, or `nil` at the end.
    private mutating func nextBlock() -> Range<Int>? {
        while index < lines.count && lines[index].isEmpty { index += 1 }
        guard index < lines.count else { return nil }
        let start = index
        while index < lines.count && !lines[index].isEmpty { index += 1 }
        return start..<index
    }

    /// A cue block: optional identifier, timing line, one or more text lines.
    /// - Returns: the cue and its start timestamp as written, for messages.
    private func readCue(_ block: Range<Int>) throws(WebVTTError) -> (TranscriptCue, String) {
        var timingIndex = block.lowerBound
        var identifier: String?
        if !lines[timingIndex].contains("-->") {
            identifier = lines[timingIndex]
            timingIndex += 1
            guard timingIndex < block.upperBound, lines[timingIndex].contains("-->") else {
                throw error(atIndex: block.lowerBound, .missingTimingLine(found: lines[block.lowerBound]))
            }
        }
        let timing = try readTiming(lines[timingIndex], lineIndex: timingIndex)
        let textIndices = (timingIndex + 1)..<block.upperBound
        guard !textIndices.isEmpty else { throw error(atIndex: timingIndex, .emptyCueText) }
        if let arrowIndex = textIndices.first(where: { lines[$0].contains("-->") }) {
            throw error(atIndex: arrowIndex, .arrowInCueText)
        }
        let text = textIndices.map { lines[$0] }.joined(separator: "\n")
        // Bytes bound characters from above: count characters only when the bytes could be too many.
        if text.utf8.count > WebVTTParser.maximumCueCharacters, text.count > WebVTTParser.maximumCueCharacters {
            throw error(atIndex: textIndices.lowerBound, .cueTooLong(characters: text.count))
        }
        let cue = TranscriptCue(identifier: identifier, start: timing.start, end: timing.end, settings: timing.settings, text: text)
        return (cue, timing.startText)
    }

    /// `start --> end [settings]`; whitespace around the arrow is optional, settings are kept raw.
    private func readTiming(_ line: String, lineIndex: Int) throws(WebVTTError) -> (start: Duration, end: Duration, settings: String, startText: String) {
        guard let arrow = line.firstRange(of: "-->") else {
            throw error(atIndex: lineIndex, .missingTimingLine(found: line)) // callers only pass lines with an arrow
        }
        let startText = trimmingSpacesAndTabs(line[..<arrow.lowerBound])
        let afterArrow = trimmingSpacesAndTabs(line[arrow.upperBound...])
        let endText = afterArrow.prefix { $0 != " " && $0 != "\t" }
        let settings = trimmingSpacesAndTabs(afterArrow.dropFirst(endText.count))
        guard let start = WebVTTTimestamp.parse(startText) else {
            throw error(atIndex: lineIndex, .badTimestamp(String(startText)))
        }
        guard let end = WebVTTTimestamp.parse(endText) else {
            throw error(atIndex: lineIndex, .badTimestamp(String(endText)))
        }
        guard end > start else {
            throw error(atIndex: lineIndex, .endNotAfterStart(start: String(startText), end: String(endText)))
        }
        return (start, end, String(settings), String(startText))
    }
}

/// True when `line` is `keyword` alone or followed by a space or tab (so "NOTEBOOK" is not a NOTE).
private func startsWithKeyword(_ line: String, _ keyword: String) -> Bool {
    guard line.hasPrefix(keyword) else { return false }
    let rest = line.dropFirst(keyword.count)
    return rest.isEmpty || rest.hasPrefix(" ") || rest.hasPrefix("\t")
}

private func trimmingSpacesAndTabs(_ text: Substring) -> Substring {
    let isSpaceOrTab = { (character: Character) in character == " " || character == "\t" }
    guard let first = text.firstIndex(where: { !isSpaceOrTab($0) }), let last = text.lastIndex(where: { !isSpaceOrTab($0) }) else {
        return text[text.endIndex...]
    }
    return text[first...last]
}
