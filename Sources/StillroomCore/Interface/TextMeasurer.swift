/// How the interface learns how much room text needs, so screens reflow for every text size and no
/// line is ever cut off. The core cannot shape text itself (that is pango's job, in the painter), so
/// the painter lends its measure (`ScenePainter.textMeasurer`); without one, a conservative estimate
/// stands in (tests of the pure core, a box with no screen).
public struct TextMeasurer {
    /// Lines `run` takes when wrapped at its frame's width, with no line cap.
    public var lineCount: (TextRun) -> Int
    /// The width of `run` laid out on one line, in pixels.
    public var lineWidth: (TextRun) -> Double

    public init(lineCount: @escaping (TextRun) -> Int, lineWidth: @escaping (TextRun) -> Double) {
        self.lineCount = lineCount
        self.lineWidth = lineWidth
    }

    /// A pure estimate that errs wide: every character as wide as a broad Inter letter, words wrapped
    /// greedily. Good enough to lay out screens without a painter; the painter's measure is exact.
    public static var estimate: TextMeasurer {
        TextMeasurer(lineCount: { run in estimatedLines(run) }, lineWidth: { run in estimatedWidth(run.text, run) })
    }

    static func advance(_ run: TextRun) -> Double {
        let factor: Double = switch run.weight {
        case .light, .regular: 0.56
        case .medium: 0.58
        case .semibold: 0.6
        case .bold: 0.62
        }
        return run.size * factor + run.letterSpacing
    }

    static func estimatedWidth(_ text: Substring, _ run: TextRun) -> Double {
        Double(text.count) * advance(run)
    }

    static func estimatedWidth(_ text: String, _ run: TextRun) -> Double {
        Double(text.count) * advance(run)
    }

    static func estimatedLines(_ run: TextRun) -> Int {
        let width = max(1, run.frame.width)
        let space = advance(run)
        var lines = 1
        var used = 0.0
        for word in run.text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = estimatedWidth(word, run)
            if used > 0 && used + space + wordWidth > width {
                lines += 1
                used = 0
            }
            if wordWidth > width {
                // A word wider than the line breaks between characters.
                let extra = Int((wordWidth / width).rounded(.up)) - 1
                lines += extra
                used = wordWidth - Double(extra) * width
            } else {
                used += (used > 0 ? space : 0) + wordWidth
            }
        }
        return lines
    }
}
