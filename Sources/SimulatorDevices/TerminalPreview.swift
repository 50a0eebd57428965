import StillroomCore

/// The simulator's screen in a terminal: each character cell shows two pixels stacked, the upper half
/// block "▀" in the top pixel's colour over a background of the bottom pixel's colour, both in 24-bit
/// true colour (ESC[38;2;r;g;bm and ESC[48;2;r;g;bm). Terminal cells are about twice as tall as wide,
/// so the pixels come out square.
public enum TerminalPreview {
    /// The frame scaled to `columns` cells wide (box-averaged), as lines of escape sequences, each line
    /// ending with a colour reset. With `homeCursor` the text starts with ESC[H, so printing it again
    /// redraws in place. Colours are repeated only when they change along a line.
    public static func render(_ frame: Frame, columns: Int, homeCursor: Bool = false) -> String {
        let columns = max(1, min(columns, frame.width))
        // Rows of pixels in the preview: keep the aspect ratio, an even number (two per cell).
        var pixelRows = Int((Double(frame.height) * Double(columns) / Double(frame.width)).rounded())
        pixelRows = max(2, pixelRows + pixelRows % 2)
        let samples = downscale(frame, columns: columns, rows: pixelRows)

        var out = homeCursor ? "\u{1B}[H" : ""
        out.reserveCapacity(columns * pixelRows / 2 * 40)
        for cellRow in 0..<(pixelRows / 2) {
            var lastTop: UInt32?
            var lastBottom: UInt32?
            for column in 0..<columns {
                let top = samples[(2 * cellRow) * columns + column]
                let bottom = samples[(2 * cellRow + 1) * columns + column]
                if top != lastTop { out += "\u{1B}[38;2;\(channels(top))m"; lastTop = top }
                if bottom != lastBottom { out += "\u{1B}[48;2;\(channels(bottom))m"; lastBottom = bottom }
                out += "\u{2580}"
            }
            out += "\u{1B}[0m\n"
        }
        return out
    }

    /// Box-averages the frame to `columns × rows` colours (0x00RRGGBB).
    static func downscale(_ frame: Frame, columns: Int, rows: Int) -> [UInt32] {
        var result = [UInt32](repeating: 0, count: columns * rows)
        for row in 0..<rows {
            let y0 = row * frame.height / rows, y1 = max(y0 + 1, (row + 1) * frame.height / rows)
            for column in 0..<columns {
                let x0 = column * frame.width / columns, x1 = max(x0 + 1, (column + 1) * frame.width / columns)
                var red = 0, green = 0, blue = 0
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let pixel = frame.pixels[y * frame.width + x]
                        red += Int(pixel >> 16 & 0xFF)
                        green += Int(pixel >> 8 & 0xFF)
                        blue += Int(pixel & 0xFF)
                    }
                }
                let count = (y1 - y0) * (x1 - x0)
                let r = UInt32((red + count / 2) / count), g = UInt32((green + count / 2) / count)
                let b = UInt32((blue + count / 2) / count)
                result[row * columns + column] = r << 16 | g << 8 | b
            }
        }
        return result
    }

    private static func channels(_ rgb: UInt32) -> String { "\(rgb >> 16 & 0xFF);\(rgb >> 8 & 0xFF);\(rgb & 0xFF)" }
}
