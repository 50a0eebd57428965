import SimulatorDevices
import DeviceFakes
import Devices
import DisplayPipeline
import StillroomCore
import Testing

@Suite struct SimulatorPiecesTests {
    @Test func terminalPreviewStacksTwoPixelsPerCellInTrueColour() {
        let frame = Frame(width: 2, height: 2)
        frame[0, 0] = 0xFFFF_0000; frame[1, 0] = 0xFFFF_0000
        frame[0, 1] = 0xFF00_00FF; frame[1, 1] = 0xFF00_FF00
        let text = TerminalPreview.render(frame, columns: 2)
        // Red over blue, then red again (not repeated) over green.
        #expect(text == "\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m\u{2580}\u{1B}[48;2;0;255;0m\u{2580}\u{1B}[0m\n")
        #expect(TerminalPreview.render(frame, columns: 2, homeCursor: true).hasPrefix("\u{1B}[H"))
    }

    @Test func terminalPreviewAveragesDownAndKeepsTheShape() {
        let frame = Frame(width: 800, height: 480, fill: 0xFF10_2030)
        for y in 0..<480 { for x in 400..<800 { frame[x, y] = 0xFFF0_E0D0 } }
        let text = TerminalPreview.render(frame, columns: 40)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 12) // 40 columns × 24 pixel rows (800:480) = 12 cell rows
        #expect(lines.allSatisfy { $0.filter { $0 == "\u{2580}" }.count == 40 })
        #expect(lines[0].hasPrefix("\u{1B}[38;2;16;32;48m"))
        #expect(lines[0].contains("\u{1B}[38;2;240;224;208m"))
    }

    @Test func displaySpecsParse() throws {
        #expect(try DisplaySpec(parsing: "drm") == .drm())
        #expect(try DisplaySpec(parsing: "drm:/tmp/dri") == .drm(directory: "/tmp/dri"))
        #expect(try DisplaySpec(parsing: "drm:/tmp/dri").description == "drm:/tmp/dri")
        #expect(try DisplaySpec(parsing: "drm:/dev/dri").description == "drm")
        #expect(throws: DisplayError.self) { try DisplaySpec(parsing: "drm:") }
        #expect(try DisplaySpec(parsing: "none") == DisplaySpec.none)
        #expect(try DisplaySpec(parsing: "memory") == .memory(size: PixelSize(width: 800, height: 480)))
        #expect(try DisplaySpec(parsing: "memory@480x320").description == "memory@480x320")
        #expect(throws: DisplayError.self) { try DisplaySpec(parsing: "memory@big") }
        #expect(try DisplaySpec(parsing: "png:/tmp/screen.png") == .png(path: "/tmp/screen.png", size: PixelSize(width: 800, height: 480)))
        #expect(try DisplaySpec(parsing: "png@480x320:/tmp/a:b.png") == .png(path: "/tmp/a:b.png", size: PixelSize(width: 480, height: 320)))
        #expect(try DisplaySpec(parsing: "png@480x320:/tmp/s.png").description == "png@480x320:/tmp/s.png")
        for bad in ["", "x11", "png:", "png@big:/tmp/x.png", "png@0x0:/tmp/x.png"] {
            #expect(throws: DisplayError.self) { try DisplaySpec(parsing: bad) }
        }
    }
}
