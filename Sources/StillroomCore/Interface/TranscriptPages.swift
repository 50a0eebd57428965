// A transcript cue can be longer than the transcript screen holds at a large text size (a downloaded
// transcript may put a paragraph in one cue). Such a cue is read a page at a time: the knob moves through
// its pages as through cues, and while the transcript follows the recording the cue's pages take turns,
// each for its share of the cue's time. docs/display.md, "Transcript pages".

/// Where the reader is in a transcript: a cue, and a page of it (0 for a cue that fits the screen).
public struct TranscriptPlace: Hashable, Sendable {
    public var cue: Int
    public var page: Int

    public init(cue: Int, page: Int = 0) {
        self.cue = cue
        self.page = page
    }
}

/// The pages of transcript cues as the screen cuts them (`InterfaceScene.transcriptPages`), each fitting
/// the transcript screen whole. Only cues near the reader are cut (measuring text costs); a cue not listed
/// counts as one page, its whole text.
public struct TranscriptPages: Equatable, Sendable {
    /// Cue index → its pages, in order.
    public private(set) var pagesByCue: [Int: [String]]

    public init(_ pagesByCue: [Int: [String]] = [:]) {
        self.pagesByCue = pagesByCue
    }

    public func pageCount(ofCue cue: Int) -> Int { max(1, pagesByCue[cue]?.count ?? 1) }

    /// The words on the page at `place` (the cue's plain text when it is one page).
    public func text(at place: TranscriptPlace, in transcript: Transcript) -> String {
        if let pages = pagesByCue[place.cue], !pages.isEmpty { return pages[min(max(0, place.page), pages.count - 1)] }
        return transcript.cues.indices.contains(place.cue) ? transcript.cues[place.cue].plainText : ""
    }

    /// The page of `cue` showing at `seconds` into the recording while the transcript follows it: the cue's
    /// time is shared among its pages in proportion to their length, as the words are spoken.
    public func page(ofCue cue: Int, in transcript: Transcript, atSeconds seconds: Double) -> Int {
        guard let pages = pagesByCue[cue], pages.count > 1, transcript.cues.indices.contains(cue) else { return 0 }
        let starts = pageStarts(pages, transcript.cues[cue])
        return max(0, (starts.lastIndex { $0 <= seconds }) ?? 0)
    }

    /// When the page after the one showing at `seconds` starts (nil on a cue's last page).
    public func nextPageStart(ofCue cue: Int, in transcript: Transcript, atSeconds seconds: Double) -> Double? {
        guard let pages = pagesByCue[cue], pages.count > 1, transcript.cues.indices.contains(cue) else { return nil }
        return pageStarts(pages, transcript.cues[cue]).first { $0 > seconds }
    }

    /// `place` moved `steps` pages on (back when negative), across cues, kept within the transcript.
    public func place(_ place: TranscriptPlace, movedBy steps: Int, in transcript: Transcript) -> TranscriptPlace {
        guard !transcript.cues.isEmpty else { return place }
        var moved = TranscriptPlace(cue: min(max(0, place.cue), transcript.cues.count - 1),
                                    page: min(max(0, place.page), pageCount(ofCue: place.cue) - 1))
        for _ in 0..<abs(steps) {
            if steps > 0 {
                if moved.page + 1 < pageCount(ofCue: moved.cue) {
                    moved.page += 1
                } else if moved.cue + 1 < transcript.cues.count {
                    moved = TranscriptPlace(cue: moved.cue + 1)
                }
            } else if moved.page > 0 {
                moved.page -= 1
            } else if moved.cue > 0 {
                moved = TranscriptPlace(cue: moved.cue - 1, page: pageCount(ofCue: moved.cue - 1) - 1)
            }
        }
        return moved
    }

    /// The start of each page in the recording, in seconds.
    private func pageStarts(_ pages: [String], _ cue: TranscriptCue) -> [Double] {
        let lengths = pages.map { Double(max(1, $0.count)) }
        let total = lengths.reduce(0, +)
        let start = cue.start.seconds, span = cue.end.seconds - cue.start.seconds
        var before = 0.0
        return lengths.map { length in
            defer { before += length }
            return start + span * before / total
        }
    }
}

/// Cuts text into pages of at most a number of lines.
enum PageCutter {
    /// The fewest pages, filled greedily from the start, each at most `lines` lines as `lineCount` measures
    /// it. Pages break at white space; a word longer than a whole page is cut between characters. Measures
    /// O(log n) times a page (a binary search on how many words fit), so a long cue costs a few layouts.
    static func pages(of text: String, lines: Int, lineCount: (String) -> Int) -> [String] {
        let whole = trimmed(text[...])
        guard lines > 0, !whole.isEmpty, lineCount(String(whole)) > lines else { return [String(whole)] }
        var words = wordsKeepingSpace(whole)
        var pages: [String] = []
        while !words.isEmpty {
            var fitting = 0, tooMany = words.count + 1 // invariant: `fitting` words fit, `tooMany` do not
            while tooMany - fitting > 1 {
                let middle = (fitting + tooMany) / 2
                if lineCount(joined(words[..<middle])) <= lines { fitting = middle } else { tooMany = middle }
            }
            if fitting == 0 { // one word longer than a page: cut it between characters
                let word = words[0]
                var fits = 0, tooLong = word.count + 1
                while tooLong - fits > 1 {
                    let middle = (fits + tooLong) / 2
                    if lineCount(String(word.prefix(middle))) <= lines { fits = middle } else { tooLong = middle }
                }
                let cut = word.index(word.startIndex, offsetBy: max(1, fits))
                pages.append(String(word[..<cut]))
                words[0] = word[cut...]
                if trimmed(words[0]).isEmpty { words.removeFirst() }
                continue
            }
            pages.append(joined(words[..<fitting]))
            words.removeFirst(fitting)
        }
        return pages
    }

    /// Words, each with the white space after it, so joining them gives the text back.
    private static func wordsKeepingSpace(_ text: Substring) -> [Substring] {
        var words: [Substring] = []
        var start = text.startIndex
        var inSpace = false
        for index in text.indices {
            let isSpace = text[index].isWhitespace
            if inSpace && !isSpace {
                words.append(text[start..<index])
                start = index
            }
            inSpace = isSpace
        }
        words.append(text[start...])
        return words
    }

    private static func joined(_ words: ArraySlice<Substring>) -> String {
        String(trimmed(Substring(words.joined())))
    }

    private static func trimmed(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }), let last = text.lastIndex(where: { !$0.isWhitespace }) else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }
}
