import StillroomCore

/// The `history export` answer: the whole history as one text, JSON or CSV as asked.
///
///     {"text": "…"}
public struct HistoryExportReport: Equatable, Sendable {
    public var text: String

    public init(text: String) { self.text = text }

    public var json: JSONValue { .object(["text": .string(text)]) }

    public init(json: JSONValue) { text = json["text"]?.stringValue ?? "" }
}
