// Stillroom's look in one place: colour, type, spacing and radii. Screens take their values from here
// and nowhere else, so the day/night variants, large text and small panels stay consistent.
//
// The palette is our own. Day is "sage morning": a misty green-grey ground, deep pine text, a eucalyptus
// accent and a heather note for the breathing circle. Night is "ember": a near-black warm ground with
// dim sand text and a low copper accent — no blue channel above red anywhere, low luminance, so a dark
// bedroom stays dark. Contrast is checked in a test (text 4.5:1, graphics 3:1; WCAG 2.x AA).

/// Which palette is in use: day, or night (dim, warm, no bright blue).
public enum Appearance: String, Hashable, Sendable, CaseIterable {
    case day
    case night
}

/// Colours by role. Text roles are checked for contrast against `background` and `surface`.
public struct Palette: Hashable, Sendable {
    /// The screen's ground.
    public var background: Color
    /// Cards and raised areas on the ground.
    public var surface: Color
    /// Titles and main text.
    public var textPrimary: Color
    /// Supporting text: times, subtitles.
    public var textSecondary: Color
    /// Hints and labels: the quietest text that must still be read.
    public var textMuted: Color
    /// Progress, focus, active controls.
    public var accent: Color
    /// Text and icons drawn on `accent`.
    public var onAccent: Color
    /// The unfilled part of a progress bar; dividers.
    public var track: Color
    /// The breathing circle: its soft body, its edge, and the still guide ring at full size.
    public var breathBody: Color
    public var breathEdge: Color
    public var breathGuide: Color
    /// Notices that need attention (an output lost); calm, not alarming.
    public var attention: Color
    /// Round controls (play/pause): their body, the icon on it, and an optional rim. At night the body
    /// is dim and the icon carries the accent, so the largest control is not the brightest thing.
    public var controlFill: Color
    public var controlIcon: Color
    public var controlRim: Color?

    public static let day = Palette(
        background: Color(hex: 0xE3E8E1),
        surface: Color(hex: 0xEEF2EC),
        textPrimary: Color(hex: 0x1E2A25),
        textSecondary: Color(hex: 0x46574F),
        textMuted: Color(hex: 0x56665E),
        accent: Color(hex: 0x3B6A5D),
        onAccent: Color(hex: 0xF4F7F2),
        track: Color(hex: 0xC8D2C9),
        breathBody: Color(hex: 0x9A8CB4),
        breathEdge: Color(hex: 0x6B5E86),
        breathGuide: Color(hex: 0xB9C4BB),
        attention: Color(hex: 0x8A4B2E),
        controlFill: Color(hex: 0x3B6A5D),
        controlIcon: Color(hex: 0xF4F7F2),
        controlRim: nil)

    public static let night = Palette(
        background: Color(hex: 0x0D0A08),
        surface: Color(hex: 0x18120F),
        textPrimary: Color(hex: 0xB49478),
        textSecondary: Color(hex: 0x94806C),
        textMuted: Color(hex: 0x94806C),
        accent: Color(hex: 0xA66E4A),
        onAccent: Color(hex: 0x0D0A08),
        track: Color(hex: 0x2A201A),
        breathBody: Color(hex: 0x5A3A26),
        breathEdge: Color(hex: 0x9A6544),
        breathGuide: Color(hex: 0x241B15),
        attention: Color(hex: 0xB0714A),
        controlFill: Color(hex: 0x241913),
        controlIcon: Color(hex: 0xA36B47),
        controlRim: Color(hex: 0x4A3122))

    public static func of(_ appearance: Appearance) -> Palette { appearance == .day ? .day : .night }

    /// Every text colour with the grounds it is drawn on: what the contrast test checks at 4.5:1.
    public var textPairs: [(name: String, text: Color, ground: Color)] {
        var pairs: [(String, Color, Color)] = []
        for (name, text) in [("textPrimary", textPrimary), ("textSecondary", textSecondary), ("textMuted", textMuted),
                             ("attention", attention)] {
            pairs.append((name + " on background", text, background))
            pairs.append((name + " on surface", text, surface))
        }
        pairs.append(("onAccent on accent", onAccent, accent))
        return pairs
    }

    /// Graphics that carry meaning (progress, the circle's edge) against the ground: checked at 3:1.
    public var graphicPairs: [(name: String, graphic: Color, ground: Color)] {
        [("accent on background", accent, background), ("accent on track", accent, track),
         ("breathEdge on background", breathEdge, background), ("accent on surface", accent, surface),
         ("controlIcon on controlFill", controlIcon, controlFill)]
    }

    /// Every colour, by name (for the night checks and the docs).
    public var all: [(name: String, color: Color)] {
        [("background", background), ("surface", surface), ("textPrimary", textPrimary),
         ("textSecondary", textSecondary), ("textMuted", textMuted), ("accent", accent), ("onAccent", onAccent),
         ("track", track), ("breathBody", breathBody), ("breathEdge", breathEdge), ("breathGuide", breathGuide),
         ("attention", attention), ("controlFill", controlFill), ("controlIcon", controlIcon)]
            + (controlRim.map { [("controlRim", $0)] } ?? [])
    }
}

/// One step of the type scale.
public struct TextStyle: Hashable, Sendable {
    public var role: FontRole
    public var size: Double
    public var weight: FontWeight
    /// Line pitch as a multiple of `size`.
    public var lineHeight: Double
    public var letterSpacing: Double

    public init(role: FontRole = .text, size: Double, weight: FontWeight, lineHeight: Double = 1.25,
                letterSpacing: Double = 0) {
        self.role = role
        self.size = size
        self.weight = weight
        self.lineHeight = lineHeight
        self.letterSpacing = letterSpacing
    }

    /// The pitch of one line in pixels.
    public var linePitch: Double { size * lineHeight }

    func scaled(by factor: Double, minimumSize: Double) -> TextStyle {
        var style = self
        style.size = max(minimumSize, (size * factor).rounded())
        style.letterSpacing = letterSpacing * factor
        return style
    }
}

/// The type scale, in pixels, for one screen.
public struct TypeScale: Hashable, Sendable {
    /// A session's title in the player.
    public var title: TextStyle
    /// Headings of lists and screens.
    public var heading: TextStyle
    /// Running text, list rows.
    public var body: TextStyle
    /// Times and counters (tabular figures).
    public var numeric: TextStyle
    /// Small spaced labels above titles ("BREATHE · 5 MIN").
    public var label: TextStyle
    /// Hints and secondary lines.
    public var caption: TextStyle

    /// The scale at the reference screen, 800×480 (a 7" panel, read from a pillow's distance).
    public static let reference = TypeScale(
        title: TextStyle(role: .display, size: 36, weight: .semibold, lineHeight: 1.2),
        heading: TextStyle(role: .display, size: 28, weight: .semibold, lineHeight: 1.2),
        body: TextStyle(size: 22, weight: .regular, lineHeight: 1.35),
        numeric: TextStyle(size: 22, weight: .medium, lineHeight: 1.2),
        label: TextStyle(size: 16, weight: .semibold, lineHeight: 1.2, letterSpacing: 1.6),
        caption: TextStyle(size: 17, weight: .regular, lineHeight: 1.3))

    /// Smallest size any text may have, in pixels: below it a 3.5" panel becomes hard to read in bed.
    public static let minimumSize = 12.0

    func scaled(by factor: Double) -> TypeScale {
        TypeScale(title: title.scaled(by: factor, minimumSize: Self.minimumSize),
                  heading: heading.scaled(by: factor, minimumSize: Self.minimumSize),
                  body: body.scaled(by: factor, minimumSize: Self.minimumSize),
                  numeric: numeric.scaled(by: factor, minimumSize: Self.minimumSize),
                  label: label.scaled(by: factor, minimumSize: Self.minimumSize),
                  caption: caption.scaled(by: factor, minimumSize: Self.minimumSize))
    }
}

/// Spacing steps, in pixels, for one screen.
public struct Spacing: Hashable, Sendable {
    public var xs: Double
    public var s: Double
    public var m: Double
    public var l: Double
    public var xl: Double
    /// The margin between the screen's edge and content.
    public var edge: Double

    public static let reference = Spacing(xs: 4, s: 8, m: 16, l: 24, xl: 40, edge: 40)

    func scaled(by factor: Double) -> Spacing {
        Spacing(xs: (xs * factor).rounded(), s: (s * factor).rounded(), m: (m * factor).rounded(),
                l: (l * factor).rounded(), xl: (xl * factor).rounded(), edge: (edge * factor).rounded())
    }
}

/// Corner radii, in pixels, for one screen.
public struct Radii: Hashable, Sendable {
    public var small: Double
    public var medium: Double
    public var large: Double

    public static let reference = Radii(small: 6, medium: 14, large: 24)

    func scaled(by factor: Double) -> Radii {
        Radii(small: (small * factor).rounded(), medium: (medium * factor).rounded(), large: (large * factor).rounded())
    }
}

/// All the design tokens for one screen size, appearance and text-size setting.
public struct DesignTokens: Hashable, Sendable {
    public var appearance: Appearance
    public var palette: Palette
    public var type: TypeScale
    public var spacing: Spacing
    public var radii: Radii
    /// Whether the large-text setting is on (the type scale is 1.25× and layouts give text more room).
    public var largeText: Bool
    /// Thickness of strokes and bars, in pixels.
    public var hairline: Double
    /// The screen these tokens are for.
    public var screen: PixelSize

    /// Tokens for a screen: spacing follows the screen's size against 800×480; type shrinks more
    /// gently, so small panels keep readable text; large text multiplies the type by 1.25.
    public init(appearance: Appearance, screen: PixelSize, largeText: Bool = false) {
        let scale = min(Double(screen.width) / 800, Double(screen.height) / 480)
        let spaceFactor = max(0.4, scale)
        let typeFactor = (0.35 + 0.65 * scale) * (largeText ? 1.25 : 1)
        self.appearance = appearance
        self.palette = .of(appearance)
        self.type = TypeScale.reference.scaled(by: typeFactor)
        self.spacing = Spacing.reference.scaled(by: spaceFactor)
        self.radii = Radii.reference.scaled(by: spaceFactor)
        self.largeText = largeText
        self.hairline = max(1, (2 * spaceFactor).rounded())
        self.screen = screen
    }
}
