import CairoPainter
import StillroomCore
import Testing

@Suite struct TextTests {
    let painter: ScenePainter

    init() throws { painter = try ScenePainter(size: PixelSize(width: 100, height: 100)) }

    func run(_ text: String, width: Double = 200, lines: Int = 1, cut: TextTruncation = .end) -> TextRun {
        TextRun(text: text, frame: Rect(x: 0, y: 0, width: width, height: 100), size: 20, color: Color(hex: 0), maxLines: lines, truncation: cut)
    }

    @Test func longTextIsCutWithAnEllipsisOnItsLastAllowedLine() {
        let long = "A long slow body scan for the end of a very long and tiring day"
        #expect(painter.isEllipsized(run(long)))
        #expect(painter.lineCount(of: run(long)) == 1)
        #expect(painter.isEllipsized(run(long, lines: 2)))
        #expect(painter.lineCount(of: run(long, lines: 2)) == 2)
        #expect(painter.isEllipsized(run(long, cut: .middle)))
        #expect(!painter.isEllipsized(run("Short")))
        #expect(painter.lineCount(of: run(long, width: 2000, lines: 3)) == 1)
        // Without truncation the text wraps on (the frame clips it).
        #expect(painter.lineCount(of: run(long, lines: 2, cut: .none)) > 2)
    }

    @Test(arguments: ["Übung · Respiración · Œuvre · Łódź", "Αναπνοή · ήσυχα", "Дыхание · тишина", "Tiếng Việt · Türkçe"])
    func scriptsTheFontCoversNeedNoFallbackBoxes(_ text: String) {
        #expect(painter.unknownGlyphs(in: run(text, width: 2000)) == 0)
    }

    @Test func aMissingFontFamilyIsAClearErrorNamingThePackage() {
        let fonts = FontSet(text: "Stillroom Missing Sans", display: "Inter Display", package: "fonts-stillroom-missing")
        do {
            try fonts.verify()
            Issue.record("a missing family passed the check")
        } catch {
            #expect(error.kind == .fontMissing)
            #expect(error.detail.contains("\"Stillroom Missing Sans\""))
            #expect(error.detail.contains("apt-get install fonts-stillroom-missing"))
        }
        #expect(throws: PainterError.self) { try ScenePainter(size: PixelSize(width: 10, height: 10), fonts: fonts) }
        #expect(throws: Never.self) { try FontSet.standard.verify() }
    }
}
