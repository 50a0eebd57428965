// The split the player and the breathing timer share: the breathing circle at the left, a column of text
// and the one button at the right. Each screen tries its own list of options (title size, circle share,
// which hints) and takes the first that fits; the geometry of one option and the last resort are here.

extension Canvas {
    struct CircleColumn {
        var center: Point
        var minimumRadius: Double
        var maximumRadius: Double
        var columnX: Double
        var columnWidth: Double
    }

    /// The circle taking `share` of the screen's width (0: it steps aside, the column takes the whole area),
    /// never smaller at rest than the words inside it need, and the column after it.
    func circleColumn(area: Rect, share: Double) -> CircleColumn {
        let label = (6 * type.body.size + 2 * space.s) / 2
        let maximum = share > 0 ? min(area.height / 2, (screenWidth * share).rounded()).rounded(.down) : 0
        let minimum = min(max(maximum * 0.45, label), maximum * 0.7).rounded()
        let columnX = share > 0 ? area.x + 2 * maximum + space.xl : area.x
        return CircleColumn(center: Point(x: area.x + maximum, y: area.y + area.height / 2), minimumRadius: minimum,
                            maximumRadius: maximum, columnX: columnX, columnWidth: area.maxX - columnX)
    }

    /// The last resort when no option fitted: how many lines of the title are left once everything else in
    /// a column of `columnHeight` has its room (the column then starts at the top of the area).
    func titleLinesLeft(_ title: String, style: TextStyle, width: Double, columnHeight: Double, area: Rect) -> Int {
        let titleHeight = textHeight(title, width: width, style: style)
        let rest = area.height - (columnHeight - titleHeight)
        return max(1, Int((rest / style.linePitch).rounded(.down)))
    }
}
