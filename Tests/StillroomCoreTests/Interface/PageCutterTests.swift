@testable import StillroomCore
import Testing

/// Cutting a long cue into pages, with a measure that is easy to reason about: a line holds 10 characters,
/// breaking at spaces (a word longer than a line takes as many lines as it needs).
@Suite struct PageCutterTests {
    static func lines(_ text: String) -> Int {
        var lines = 1, used = 0
        for word in text.split(separator: " ") {
            if used > 0 && used + 1 + word.count > 10 { lines += 1; used = 0 }
            if word.count > 10 { lines += (word.count - 1) / 10; used = (word.count - 1) % 10 + 1 } else { used += (used > 0 ? 1 : 0) + word.count }
        }
        return lines
    }

    @Test func aTextThatFitsIsOnePage() {
        #expect(PageCutter.pages(of: "  calm and easy  ", lines: 2, lineCount: Self.lines) == ["calm and easy"])
    }

    @Test func pagesAreFilledGreedilyEachFitsAndNoWordIsLost() {
        let text = "in for four and out for six let the breath find its own pace as you count without forcing"
        let pages = PageCutter.pages(of: text, lines: 2, lineCount: Self.lines)
        #expect(pages.count > 1)
        for page in pages { #expect(Self.lines(page) <= 2, "\(page)") }
        #expect(pages.joined(separator: " ").split(separator: " ") == text.split(separator: " "))
        // Greedy: each page but the last could not take the next word.
        for (index, page) in pages.dropLast().enumerated() {
            let next = pages[index + 1].split(separator: " ")[0]
            #expect(Self.lines(page + " " + next) > 2, "\(page) | \(next)")
        }
    }

    @Test func aWordLongerThanAPageIsCutBetweenCharacters() {
        let word = String(repeating: "abcdefghij", count: 5) // five lines long, pages of two lines
        let pages = PageCutter.pages(of: "breathe " + word + " out", lines: 2, lineCount: Self.lines)
        for page in pages { #expect(Self.lines(page) <= 2, "\(page)") }
        #expect(pages.joined().filter { $0 != " " } == ("breathe" + word + "out"))
    }

    @Test func linesWithinACueStayInItsPages() {
        let pages = PageCutter.pages(of: "one two\nthree four five six seven", lines: 1, lineCount: Self.lines)
        #expect(pages.allSatisfy { Self.lines($0) <= 1 })
        #expect(pages.joined(separator: " ").split(whereSeparator: \.isWhitespace) == ["one", "two", "three", "four", "five", "six", "seven"])
    }
}
