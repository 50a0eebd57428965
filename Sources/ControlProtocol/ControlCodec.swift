import FoundationEssentials
import StillroomCore

/// Encodes and decodes protocol lines. Decoding never throws: a bad line becomes a typed error the
/// daemon can answer with, so garbage on the socket costs one error line and nothing else.
public enum ControlCodec {
    // MARK: Requests

    public static func encode(_ request: ControlRequest) -> [UInt8] {
        line(.object([
            "v": .number(Double(ControlProtocol.version)),
            "id": .number(Double(request.id)),
            "command": .string(request.command),
            "arguments": .object(request.arguments),
        ]))
    }

    /// A request, or the error to answer it with (and the request id when one could be read).
    public static func decodeRequest(_ bytes: [UInt8]) -> Result<ControlRequest, RejectedRequest> {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes, maximumNesting: 16)
        } catch {
            return .failure(RejectedRequest(id: nil, error: ControlError(.badRequest, "not a JSON line: \(error)")))
        }
        guard case .object(let members) = value else {
            return .failure(RejectedRequest(id: nil, error: ControlError(.badRequest, "a request is a JSON object, got \(value.kindDescription)")))
        }
        let id = members["id"]?.integerValue
        guard let version = members["v"]?.integerValue else {
            return .failure(RejectedRequest(id: id, error: ControlError(.badRequest, "the request has no protocol version \"v\"")))
        }
        guard version == ControlProtocol.version else {
            return .failure(RejectedRequest(id: id, error: ControlError(.unsupportedVersion,
                "protocol version \(version) is not supported; this daemon speaks \(ControlProtocol.version)")))
        }
        guard let id else { return .failure(RejectedRequest(id: nil, error: ControlError(.badRequest, "the request has no integer \"id\""))) }
        guard let command = members["command"]?.stringValue, !command.isEmpty else {
            return .failure(RejectedRequest(id: id, error: ControlError(.badRequest, "the request has no \"command\"")))
        }
        var arguments: [String: JSONValue] = [:]
        if let given = members["arguments"] {
            guard case .object(let object) = given else {
                return .failure(RejectedRequest(id: id, error: ControlError(.badRequest, "\"arguments\" must be an object")))
            }
            arguments = object
        }
        return .success(ControlRequest(id: id, command: command, arguments: arguments))
    }

    // MARK: Responses

    public static func encode(_ response: ControlResponse) -> [UInt8] {
        var members: [String: JSONValue] = ["v": .number(Double(ControlProtocol.version))]
        members["id"] = response.id.map { .number(Double($0)) } ?? .null
        switch response.outcome {
        case .success(let result):
            members["ok"] = .bool(true)
            members["result"] = result
        case .failure(let error):
            members["ok"] = .bool(false)
            members["error"] = .object(["code": .string(error.code.rawValue), "message": .string(error.message)])
        }
        return line(.object(members))
    }

    public static func decodeResponse(_ bytes: [UInt8]) -> ControlResponse? {
        guard let value = try? JSONValue.parse(bytes), case .object(let members) = value,
              let ok = members["ok"]?.boolValue else { return nil }
        let id = members["id"]?.integerValue
        if ok { return ControlResponse(id: id, outcome: .success(members["result"] ?? .null)) }
        let error = members["error"]
        let code = ControlError.Code(wire: error?["code"]?.stringValue ?? "failed")
        let message = error?["message"]?.stringValue ?? "the daemon reported an error without a message"
        return ControlResponse(id: id, outcome: .failure(ControlError(code, message)))
    }

    // MARK: JSON

    /// One compact JSON line with sorted keys (stable output for tests and diffs), newline-terminated.
    public static func line(_ value: JSONValue) -> [UInt8] {
        Array(json(value).utf8) + [0x0A]
    }

    /// Compact JSON text of a value. The encoder escapes C0 controls; DEL, the C1 controls (which some
    /// terminals obey) and the bidi controls are escaped here too (`isTerminalHazard`), so none of any
    /// content reaches a terminal or a log raw through a protocol line. They can only occur inside strings,
    /// where `\u202E` is the same text.
    public static func json(_ value: JSONValue, pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        let text = String(decoding: data, as: UTF8.self)
        // C0 is the encoder's (and a pretty line's own newlines are not in a string): DEL and up are left.
        func hazard(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x7F && isTerminalHazard(scalar) }
        guard text.unicodeScalars.contains(where: hazard) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if hazard(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped.append(contentsOf: "\\u\(String(repeating: "0", count: 4 - hex.count) + hex)".unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
