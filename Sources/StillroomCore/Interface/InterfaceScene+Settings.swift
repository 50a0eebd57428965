// Settings: one row per choice, its value at the right (or under it when the text is large), a short
// explanation under the focused row, and the value in a pill while the knob adjusts it.

extension Canvas {
    mutating func settingsScreen() {
        let top = header("Settings")
        let stripTop = playStrip()
        let viewport = Rect(x: edge, y: top, width: screenWidth - 2 * edge, height: stripTop - space.m - top)
        var blocks: [Block] = []
        for (index, row) in SettingRow.allCases.enumerated() {
            blocks.append(settingRow(row, width: viewport.width, gap: index == 0 ? 0 : space.xs,
                                     focused: focused == .setting(row)))
        }
        list(blocks, in: viewport, focus: focused)
    }

    func settingRow(_ row: SettingRow, width: Double, gap: Double, focused: Bool) -> Block {
        let editing = ui.editing?.row == row
        return valueRow("settings.\(row.rawValue)", key: .setting(row), title: SettingsText.title(row),
                        value: SettingsText.value(row, model: model, editing: ui.editing), editing: editing,
                        hint: SettingsText.hint(row, editing: editing), width: width, gap: gap, focused: focused,
                        attention: row == .deleteHistory)
    }

    /// A row with a name and its value (at the right, or under the name when the text is large), the
    /// value in a pill while the knob adjusts it, an optional `detail` always shown under it, and a
    /// `hint` under the focused row. The settings and the breathing timer's set-up use it.
    func valueRow(_ id: String, key: FocusKey, title: String, value shownValue: String, editing: Bool, detail: String? = nil,
                  hint: String, width: Double, gap: Double, focused: Bool, attention: Bool = false) -> Block {
        let pad = tokens.cardPadding
        let inner = width - 2 * pad.horizontal
        var value = shownValue
        if editing { value = "\u{2039} \(value) \u{203A}" }
        let titleStyle = tokens.rowTitle
        var valueStyle = type.body
        valueStyle.weight = .medium
        let pillPad = editing ? space.s : 0
        let valueWidth = value.isEmpty ? 0 : textWidth(value, style: valueStyle) + 2 * pillPad
        let titleWidth = textWidth(title, style: titleStyle)
        let sameLine = value.isEmpty || titleWidth + space.l + valueWidth <= inner
        let titleHeight = textHeight(title, width: sameLine ? inner - (value.isEmpty ? 0 : valueWidth + space.l) : inner, style: titleStyle)
        let valueHeight = value.isEmpty ? 0 : textHeight(value, width: inner - 2 * pillPad, style: valueStyle)
        let detailHeight = detail.map { textHeight($0, width: inner, style: type.caption) + space.xs } ?? 0
        let hintHeight = focused ? textHeight(hint, width: inner, style: type.caption) + space.xs : 0
        let lineHeight = sameLine ? max(titleHeight, valueHeight) : titleHeight + space.xs + valueHeight
        let height = 2 * pad.vertical + lineHeight + detailHeight + hintHeight
        return Block(id: id, key: key, height: height, gap: gap) { canvas, frame, focused in
            let p = canvas.palette
            let radius = canvas.tokens.radii.medium
            if focused {
                canvas.rect(id, frame, radius: radius, fill: p.surface)
                canvas.focusRing(id + ".ring", frame, radius: radius)
            } else {
                canvas.rect(id + ".rule", Rect(x: frame.x + pad.horizontal, y: frame.maxY - canvas.tokens.hairline / 2,
                                               width: inner, height: canvas.tokens.hairline), radius: 0, fill: p.track)
            }
            let x = frame.x + pad.horizontal
            let y = frame.y + pad.vertical
            canvas.text(id + ".title", title, x: x, y: y, width: sameLine ? inner - (value.isEmpty ? 0 : valueWidth + canvas.space.l) : inner,
                        style: titleStyle, color: attention ? p.attention : p.textPrimary)
            if !value.isEmpty {
                let box = sameLine
                    ? Rect(x: frame.x + frame.width - pad.horizontal - valueWidth, y: y, width: valueWidth, height: valueHeight)
                    : Rect(x: x, y: y + titleHeight + canvas.space.xs, width: editing ? valueWidth : inner, height: valueHeight)
                if editing {
                    canvas.rect(id + ".pill", box.outset(by: 2), radius: box.height / 2 + 2, fill: p.accent)
                }
                canvas.text(id + ".value", value, x: box.x + pillPad, y: box.y, width: box.width - 2 * pillPad, style: valueStyle,
                            color: editing ? p.onAccent : p.textSecondary, alignment: sameLine ? .trailing : .leading)
            }
            var below = y + lineHeight
            if let detail {
                below += canvas.space.xs
                below += canvas.text(id + ".detail", detail, x: x, y: below, width: inner, style: canvas.type.caption,
                                     color: focused ? p.textPrimary : p.textSecondary)
            }
            if focused {
                canvas.text(id + ".hint", hint, x: x, y: below + canvas.space.xs, width: inner, style: canvas.type.caption,
                            color: p.textSecondary)
            }
        }
    }
}
