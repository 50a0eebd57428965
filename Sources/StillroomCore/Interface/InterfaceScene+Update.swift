// The system update's notice: the whole screen, calm and plain, with nothing to choose (docs/updates.md).

extension Canvas {
    mutating func systemUpdateScreen(_ update: SystemUpdateShown) {
        let width = screenWidth - 2 * edge
        let heading: String
        let step: String
        let fraction: Double?
        let note: String
        switch update {
        case .installing(let percent, let stepText):
            heading = "Installing an update"
            step = "\(SystemUpdate.stepInWords(stepText)) \u{00B7} \(percent) %"
            fraction = Double(percent) / 100
            note = "The box restarts by itself when it is done. Your practice history and places are kept."
        case .restarting(let version):
            heading = "Restarting"
            step = version.isEmpty ? "Into the new version" : "Into version \(version)"
            fraction = 1
            note = "Back in a minute. If the new version does not start well, the box goes back to this one by itself."
        }
        let headingHeight = textHeight(heading, width: width, style: type.title)
        let stepHeight = textHeight(step, width: width, style: type.body)
        let noteHeight = textHeight(note, width: width, style: type.caption)
        let barHeight = tokens.barHeight
        let total = headingHeight + space.m + stepHeight + space.m + barHeight + space.l + noteHeight
        var y = max(space.m, ((screenHeight - total) / 2).rounded())
        y += text("update.heading", heading, x: edge, y: y, width: width, style: type.title, color: palette.textPrimary,
                  alignment: .center) + space.m
        y += text("update.step", step, x: edge, y: y, width: width, style: type.body, color: palette.textSecondary,
                  alignment: .center, tabular: true) + space.m
        if let fraction {
            add("update.progress", .progress(ProgressBar(frame: Rect(x: edge, y: y, width: width, height: barHeight),
                                                         fraction: min(1, max(0, fraction)), track: palette.track, fill: palette.accent)))
        }
        y += barHeight + space.l
        text("update.note", note, x: edge, y: y, width: width, style: type.caption, color: palette.textSecondary, alignment: .center)
    }
}
