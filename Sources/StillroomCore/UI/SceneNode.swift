// What is on screen, as data. A node says what to paint and where; it never says how (that is the
// painter's business), so scenes are cheap to build, compare and test.

/// The stable identity of a node across scenes ("player.title", "breath.ring"): `SceneDiff` matches
/// nodes by it to find what changed between two frames.
public struct NodeID: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public static func < (a: NodeID, b: NodeID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }
}

/// An outline drawn along a shape's edge, centred on it.
public struct Stroke: Hashable, Sendable {
    public var color: Color
    public var width: Double

    public init(_ color: Color, width: Double) {
        self.color = color
        self.width = max(0, width)
    }
}

/// A rectangle, optionally with rounded corners, filled and/or stroked.
public struct RectShape: Hashable, Sendable {
    public var frame: Rect
    public var cornerRadius: Double
    public var fill: Color?
    public var stroke: Stroke?

    public init(frame: Rect, cornerRadius: Double = 0, fill: Color? = nil, stroke: Stroke? = nil) {
        self.frame = frame
        self.cornerRadius = max(0, min(cornerRadius, min(frame.width, frame.height) / 2))
        self.fill = fill
        self.stroke = stroke
    }
}

/// A disc (fill) or a ring (stroke), or both. `glow` paints a soft halo fading out to `glowRadius`.
public struct CircleShape: Hashable, Sendable {
    public var center: Point
    public var radius: Double
    public var fill: Color?
    public var stroke: Stroke?
    /// A radial fade from `glow` at the circle's edge to transparent at `glowRadius`.
    public var glow: Color?
    public var glowRadius: Double

    public init(center: Point, radius: Double, fill: Color? = nil, stroke: Stroke? = nil,
                glow: Color? = nil, glowRadius: Double = 0) {
        self.center = center
        self.radius = max(0, radius)
        self.fill = fill
        self.stroke = stroke
        self.glow = glow
        self.glowRadius = glow == nil ? 0 : max(radius, glowRadius)
    }
}

/// A closed polygon (a play triangle, say).
public struct PolygonShape: Hashable, Sendable {
    public var points: [Point]
    public var fill: Color?
    public var stroke: Stroke?

    public init(points: [Point], fill: Color? = nil, stroke: Stroke? = nil) {
        self.points = points
        self.fill = fill
        self.stroke = stroke
    }
}

/// Which typeface a text run uses; the painter maps roles to font families (see `FontSet`).
public enum FontRole: String, Hashable, Sendable, CaseIterable {
    /// Running text, labels, buttons.
    case text
    /// Large headings and titles (a display cut, where the family has one).
    case display
}

/// Font weights by their CSS/OpenType numbers.
public enum FontWeight: Int, Hashable, Sendable, CaseIterable {
    case light = 300
    case regular = 400
    case medium = 500
    case semibold = 600
    case bold = 700
}

/// How a run lines up inside its frame's width.
public enum TextAlignment: String, Hashable, Sendable {
    case leading
    case center
    case trailing
}

/// Where text that does not fit is cut short with "…".
public enum TextTruncation: String, Hashable, Sendable {
    /// Cut at the end of the last allowed line.
    case end
    /// Keep the start and the end, cut in the middle (file names, long titles on one line).
    case middle
    /// Never cut; lines past `maxLines` are clipped by the frame.
    case none
}

/// A run of text: shaped, wrapped and cut by the painter's text engine, inside `frame`.
///
/// The frame is the box the text may paint in: its width is the wrap width, and the painter clips to
/// it, so a text node's bounds are known without measuring the text. Lines are `size * lineHeight`
/// apart, so a frame `size * lineHeight * maxLines` tall holds every allowed line.
public struct TextRun: Hashable, Sendable {
    public var text: String
    public var frame: Rect
    public var role: FontRole
    /// Pixel size of the font (the em square).
    public var size: Double
    public var weight: FontWeight
    public var color: Color
    public var alignment: TextAlignment
    /// At most this many lines (at least 1).
    public var maxLines: Int
    public var truncation: TextTruncation
    /// Line pitch as a multiple of `size`.
    public var lineHeight: Double
    /// Digits of equal width (clocks and counters that should not jiggle).
    public var tabularFigures: Bool
    /// Extra space between letters, in pixels (small caps labels).
    public var letterSpacing: Double

    public init(text: String, frame: Rect, role: FontRole = .text, size: Double, weight: FontWeight = .regular,
                color: Color, alignment: TextAlignment = .leading, maxLines: Int = 1,
                truncation: TextTruncation = .end, lineHeight: Double = 1.25, tabularFigures: Bool = false,
                letterSpacing: Double = 0) {
        self.text = text
        self.frame = frame
        self.role = role
        self.size = size
        self.weight = weight
        self.color = color
        self.alignment = alignment
        self.maxLines = max(1, maxLines)
        self.truncation = truncation
        self.lineHeight = lineHeight
        self.tabularFigures = tabularFigures
        self.letterSpacing = letterSpacing
    }
}

/// A horizontal bar showing `fraction` (0...1) of something done.
public struct ProgressBar: Hashable, Sendable {
    public var frame: Rect
    public var fraction: Double
    public var track: Color
    public var fill: Color

    public init(frame: Rect, fraction: Double, track: Color, fill: Color) {
        self.frame = frame
        self.fraction = min(1, max(0, fraction.isNaN ? 0 : fraction))
        self.track = track
        self.fill = fill
    }
}

/// A picture from the painter's image library, scaled into `frame`.
public struct ImageRef: Hashable, Sendable {
    public var name: String
    public var frame: Rect

    public init(name: String, frame: Rect) {
        self.name = name
        self.frame = frame
    }
}

/// One thing on screen, with a stable identity.
public struct SceneNode: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        case rect(RectShape)
        case circle(CircleShape)
        case polygon(PolygonShape)
        case text(TextRun)
        case progress(ProgressBar)
        case image(ImageRef)
    }

    public var id: NodeID
    public var content: Content
    /// Multiplies every colour's alpha (0 hides the node without removing it).
    public var opacity: Double

    public init(_ id: NodeID, _ content: Content, opacity: Double = 1) {
        self.id = id
        self.content = content
        self.opacity = min(1, max(0, opacity))
    }

    /// Everything the node may paint, including stroke, glow and anti-aliased edges: what must be
    /// repainted when it appears, changes or goes away.
    public var bounds: Rect {
        switch content {
        case .rect(let shape):
            return shape.frame.outset(by: (shape.stroke?.width ?? 0) / 2)
        case .circle(let shape):
            let reach = max(shape.radius + (shape.stroke?.width ?? 0) / 2, shape.glowRadius)
            return Rect(center: shape.center, radius: reach)
        case .polygon(let shape):
            guard let first = shape.points.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
            var box = Rect(x: first.x, y: first.y, width: 0, height: 0)
            for point in shape.points.dropFirst() {
                box = Rect(x: min(box.minX, point.x), y: min(box.minY, point.y),
                           width: max(box.maxX, point.x) - min(box.minX, point.x),
                           height: max(box.maxY, point.y) - min(box.minY, point.y))
            }
            // A miter join can reach further than half the stroke; twice the width is a safe bound.
            return box.outset(by: (shape.stroke?.width ?? 0) * 2)
        case .text(let run):
            return run.frame
        case .progress(let bar):
            return bar.frame
        case .image(let image):
            return image.frame
        }
    }

    /// Whether the node paints nothing at all.
    public var isInvisible: Bool { opacity == 0 || bounds.isEmpty }
}
