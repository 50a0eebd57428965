import StillroomCore

extension ScenePainter {
    /// Pango's measure of text, for the interface's layouts (`InterfaceScene(measurer:)`): the same
    /// shaping the painter draws with, so a layout that fits when measured fits when drawn. Measuring
    /// makes a layout each time; `InterfaceScene` keeps what it measured.
    public var textMeasurer: TextMeasurer {
        TextMeasurer(lineCount: { [unowned self] run in layouts.wrappedLineCount(of: run) },
                     lineWidth: { [unowned self] run in layouts.singleLineWidth(of: run) })
    }
}
