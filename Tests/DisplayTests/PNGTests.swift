import CairoPainter
import StillroomCore
import Testing
import TestSupport

@Suite struct PNGTests {
    @Test func writingAndReadingKeepsEveryPixel() throws {
        let folder = TemporaryDirectory("stillroom-png")
        defer { folder.remove() }
        let frame = Frame(width: 37, height: 11)
        for y in 0..<11 { for x in 0..<37 { frame[x, y] = 0xFF00_0000 | UInt32(x * 7) << 16 | UInt32(y * 23) << 8 | UInt32((x * y) & 0xFF) } }
        try PNGImage.write(frame, to: folder.file("f.png"))
        let back = try PNGImage.read(folder.file("f.png"))
        #expect(back.size == frame.size)
        #expect(FrameComparison(frame, back).largestDifference == 0)
    }

    @Test func unreadableFilesAreErrors() throws {
        let folder = TemporaryDirectory("stillroom-png")
        defer { folder.remove() }
        Files.write("not a png", to: folder.file("bad.png"))
        #expect(throws: PainterError.self) { try PNGImage.read(folder.file("bad.png")) }
        #expect(throws: PainterError.self) { try PNGImage.read(folder.file("absent.png")) }
        #expect(throws: PainterError.self) { try PNGImage.write(Frame(width: 2, height: 2), to: folder.file("no/such/dir.png")) }
    }

    @Test func diffImageMarksOnlyTheDifferences() {
        let a = Frame(width: 4, height: 1, fill: 0xFF10_1010), b = a.copy()
        b[2, 0] = 0xFF10_1050
        let diff = FrameComparison.diffImage(a, b)
        #expect(diff.rgb(x: 2, y: 0).red > 100)
        #expect(diff.rgb(x: 0, y: 0).red < 20)
        let comparison = FrameComparison(a, b, tolerance: 8)
        #expect(comparison.mismatchedPixels == 1 && comparison.largestDifference == 0x40)
        #expect(comparison.changedArea == PixelRect(x: 2, y: 0, width: 1, height: 1))
        #expect(FrameComparison(a, b, tolerance: 0x40).mismatchedPixels == 0)
    }
}
