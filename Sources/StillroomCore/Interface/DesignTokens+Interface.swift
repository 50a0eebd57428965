// Tokens the screens derive from the design tokens: sizes of the parts the interface repeats (cards,
// buttons, focus rings, the PLAY strip, the clock face). Derived here, in one place, so a change to
// the type scale or spacing carries through every screen. Documented in docs/design.md.

extension DesignTokens {
    /// The clock on the resting face: large, light, readable from the pillow.
    public var clockFace: TextStyle {
        TextStyle(role: .display, size: (type.title.size * 2.4).rounded(), weight: .light, lineHeight: 1.1)
    }

    /// Card and row titles in lists.
    public var rowTitle: TextStyle {
        var style = type.body
        style.weight = .semibold
        style.lineHeight = 1.25
        return style
    }

    /// Running text people read (descriptions, transcripts, notices).
    public var reading: TextStyle {
        var style = type.body
        style.lineHeight = 1.4
        return style
    }

    /// The width of the focus ring drawn round the focused card or button.
    public var focusRing: Double { max(2, (hairline * 1.5).rounded()) }

    /// Padding inside cards and buttons.
    public var cardPadding: (horizontal: Double, vertical: Double) { (spacing.m, max(spacing.s, (spacing.m * 0.75).rounded())) }

    /// The diameter of the round PLAY symbol in the PLAY strip.
    public var stripIcon: Double { (type.body.linePitch * 1.25).rounded() }

    /// The diameter of the player's big play/pause control.
    public var playerButton: Double { (type.body.size * 2.6).rounded() }

    /// Height of progress bars.
    public var barHeight: Double { max(4, (hairline * 3).rounded()) }
}
