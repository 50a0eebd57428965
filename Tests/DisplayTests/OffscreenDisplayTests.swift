import SimulatorDevices
import CairoPainter
import DeviceFakes
import Devices
import StillroomCore
import Testing
import TestSupport

@Suite struct OffscreenDisplayTests {
    @Test func writesAPNGOnlyWhenAPresentChangesPixels() throws {
        let folder = TemporaryDirectory("stillroom-offscreen")
        defer { folder.remove() }
        let size = PixelSize(width: 64, height: 40)
        let display = OffscreenDisplay(size: size, pngPath: folder.file("screen.png"), writer: CairoPNGWriter())
        var shown = 0
        display.onFrameChanged = { _ in shown += 1 }
        let frame = Frame(size: size, fill: 0xFF20_3040)
        try display.present(frame, damage: [PixelRect(size: size)])
        #expect(display.writeCount == 1 && shown == 1)
        #expect(!Files.exists(folder.file("screen.png.tmp")))
        #expect(FrameComparison(try PNGImage.read(folder.file("screen.png")), frame).largestDifference == 0)

        // Damage that changes nothing writes nothing.
        try display.present(frame, damage: [PixelRect(x: 0, y: 0, width: 10, height: 10)])
        #expect(display.presentCount == 2 && display.writeCount == 1)

        frame[3, 3] = 0xFFFF_FFFF
        frame[50, 30] = 0xFFFF_FFFF // outside the damage: not taken
        try display.present(frame, damage: [PixelRect(x: 0, y: 0, width: 10, height: 10)])
        #expect(display.writeCount == 2 && shown == 2 && display.changedFrameCount == 2)
        #expect(display.frame[3, 3] == 0xFFFF_FFFF)
        #expect(display.frame[50, 30] == 0xFF20_3040)
        let written = try PNGImage.read(folder.file("screen.png"))
        #expect(written[3, 3] & 0xFF_FFFF == 0xFF_FFFF)
    }

    @Test func nothingIsShownWhileBlank() throws {
        let size = PixelSize(width: 8, height: 8)
        let display = OffscreenDisplay(size: size)
        try display.setPowered(false)
        try display.present(Frame(size: size, fill: 0xFFFF_FFFF), damage: [PixelRect(size: size)])
        #expect(display.presentCount == 0)
        #expect(display.frame[0, 0] == 0xFF00_0000)
    }

    @Test func anUnwritablePathIsADisplayError() throws {
        let size = PixelSize(width: 8, height: 8)
        let display = OffscreenDisplay(size: size, pngPath: "/nonexistent-dir/screen.png", writer: CairoPNGWriter())
        #expect(throws: DisplayError.self) { try display.present(Frame(size: size), damage: [PixelRect(size: size)]) }
    }
}
