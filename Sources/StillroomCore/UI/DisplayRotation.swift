/// How the picture is turned on its way to a panel mounted sideways or upside down (a board-file
/// setting). The UI always draws upright at the logical size; the display turns the pixels as it
/// copies them, clockwise by this much.
public enum DisplayRotation: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case none = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270

    /// Parses "0", "90", "180", "270" (degrees clockwise).
    public init?(degrees text: String) {
        guard let degrees = Int(text), let rotation = DisplayRotation(rawValue: degrees) else { return nil }
        self = rotation
    }

    public var description: String { "\(rawValue)°" }

    /// Whether width and height trade places.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The size the UI draws at for a panel of `panel` pixels.
    public func logicalSize(panel: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: panel.height, height: panel.width) : panel
    }

    /// Where the logical pixel (x, y) lands on the panel.
    public func panelPoint(x: Int, y: Int, logical: PixelSize) -> (x: Int, y: Int) {
        switch self {
        case .none: return (x, y)
        case .clockwise90: return (logical.height - 1 - y, x)
        case .upsideDown: return (logical.width - 1 - x, logical.height - 1 - y)
        case .clockwise270: return (y, logical.width - 1 - x)
        }
    }

    /// The logical pixel shown at panel pixel (x, y): the inverse of `panelPoint`.
    public func logicalPoint(x: Int, y: Int, logical: PixelSize) -> (x: Int, y: Int) {
        switch self {
        case .none: return (x, y)
        case .clockwise90: return (y, logical.height - 1 - x)
        case .upsideDown: return (logical.width - 1 - x, logical.height - 1 - y)
        case .clockwise270: return (logical.width - 1 - y, x)
        }
    }

    /// The panel rectangle a logical rectangle covers.
    public func panelRect(_ rect: PixelRect, logical: PixelSize) -> PixelRect {
        guard !rect.isEmpty else { return rect }
        let a = panelPoint(x: rect.x, y: rect.y, logical: logical)
        let b = panelPoint(x: rect.maxX - 1, y: rect.maxY - 1, logical: logical)
        return PixelRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }
}
