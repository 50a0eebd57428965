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
        let pad = tokens.cardPadding
        let inner = width - 2 * pad.horizontal
        let title = SettingsText.title(row)
        let editing = ui.editing?.row == row
        var value = SettingsText.value(row, model: model, editing: ui.editing)
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
        let hint = SettingsText.hint(row, editing: editing)
        let hintHeight = focused ? textHeight(hint, width: inner, style: type.caption) + space.xs : 0
        let lineHeight = sameLine ? max(titleHeight, valueHeight) : titleHeight + space.xs + valueHeight
        let height = 2 * pad.vertical + lineHeight + hintHeight
        let id = "settings.\(row.rawValue)"
        return Block(id: id, key: .setting(row), height: height, gap: gap) { canvas, frame, focused in
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
            let attention = row == .deleteHistory
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
            if focused {
                canvas.text(id + ".hint", hint, x: x, y: y + lineHeight + canvas.space.xs, width: inner, style: canvas.type.caption,
                            color: p.textSecondary)
            }
        }
    }
}
