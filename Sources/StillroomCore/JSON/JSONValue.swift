/// A JSON document held as plain data.
///
/// The catalog, the breath-cue sidecars and the control protocol read JSON whose shape they
/// check field by field, so they need the raw tree rather than a `Decodable` struct: a struct decoder stops
/// at the first wrong field, while validation wants to report every wrong field and keep the good entries.
///
/// Numbers are held as `Double`, as JavaScript does: integers are exact up to 2^53, far above any
/// byte count or duration the box meets. Use `integerValue` where only whole numbers make sense.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// The member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string when this value is one, else `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number when this value is one, else `nil`.
    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int` when it is whole and exactly representable (|n| <= 2^53), else `nil`.
    public var integerValue: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) <= 9_007_199_254_740_992 else {
            return nil
        }
        return Int(value)
    }

    /// The boolean when this value is one, else `nil`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The array when this value is one, else `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object's members when this value is one, else `nil`.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// What kind of value this is, with an article, for messages: "a string", "an object".
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A short rendering for "got …" in messages: scalars in full (strings quoted, escaped and
    /// shortened), containers by kind only, so a hostile document cannot flood a log line.
    public var briefDescription: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value): formatNumberForMessage(value)
        case .string(let value): quotedForMessage(value)
        case .array, .object: kindDescription
        }
    }
}
