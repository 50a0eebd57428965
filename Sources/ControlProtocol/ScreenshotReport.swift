import StillroomCore

/// The `screenshot` answer: where the PNG of the screen was written, and its size in pixels.
///
///     {"path": "/tmp/screen.png", "width": 800, "height": 480}
public struct ScreenshotReport: Equatable, Sendable {
    public var path: String
    public var width: Int
    public var height: Int

    public init(path: String, width: Int, height: Int) {
        self.path = path
        self.width = width
        self.height = height
    }

    public var json: JSONValue { .object(["path": .string(path), "width": .number(Double(width)), "height": .number(Double(height))]) }

    /// nil without a path.
    public init?(json: JSONValue) {
        guard let path = json["path"]?.stringValue else { return nil }
        self.init(path: path, width: json["width"]?.integerValue ?? 0, height: json["height"]?.integerValue ?? 0)
    }
}
