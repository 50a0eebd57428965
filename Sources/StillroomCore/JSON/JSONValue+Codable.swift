import FoundationEssentials

// JSONValue rides on JSONDecoder/JSONEncoder so the box has one JSON reader, the one Foundation maintains.

extension JSONValue: Codable {
    /// Tries each JSON kind in turn. A type mismatch only means "not this kind, try the next"; any other
    /// failure is a real problem inside the value and is passed on with its coding path, so the message
    /// can say `sessions[2].durationSeconds` rather than "not valid JSON".
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
            return
        }
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
            return
        }
        if let value = try Self.decodeUnlessMismatched(Double.self, from: container,
                                                       failure: "a number out of the range of a Double") {
            self = .number(value)
            return
        }
        if let value = try Self.decodeUnlessMismatched(String.self, from: container,
                                                       failure: "a string that is not valid Unicode (a lone surrogate escape)") {
            self = .string(value)
            return
        }
        if let value = try Self.decodeUnlessMismatched([JSONValue].self, from: container, failure: nil) {
            self = .array(value)
            return
        }
        self = .object(try container.decode([String: JSONValue].self))
    }

    /// The value if the JSON holds that kind, `nil` if it holds another kind.
    /// - Parameter failure: what to call a value of this kind the decoder still cannot represent;
    ///   `nil` passes the underlying error on unchanged (containers: the element already explained itself).
    private static func decodeUnlessMismatched<Value: Decodable>(
        _ type: Value.Type, from container: any SingleValueDecodingContainer, failure: String?
    ) throws -> Value? {
        do {
            return try container.decode(type)
        } catch DecodingError.typeMismatch {
            return nil
        } catch {
            guard let failure else { throw error }
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: container.codingPath, debugDescription: failure))
        }
    }

    /// Writes the value back as the JSON kind it came from (the control protocol sends JSONValue too).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
