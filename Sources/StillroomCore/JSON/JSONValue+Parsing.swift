import FoundationEssentials

extension JSONValue {
    /// How deeply arrays and objects may nest by default. Content files need four levels; JSONDecoder's
    /// time grows with the cube of the depth (1.4 s at 512 levels on a desktop CPU, measured), so a
    /// hostile manifest could otherwise stall the single-threaded daemon.
    public static let defaultMaximumNesting = 64

    /// Decodes a whole JSON document (a leading UTF-8 byte-order mark is allowed).
    ///
    /// JSONDecoder decides what is valid. Its errors carry no position, so `JSONSyntaxLocator` reads the
    /// bytes first (one linear pass) to refuse over-deep nesting and to say where a syntax error is if
    /// the decoder then fails; it never accepts a document the decoder refuses.
    /// - Throws: `JSONParseError` with a line and column for syntax errors and over-deep nesting, or with
    ///   the JSON path for values that are well-formed but unrepresentable (numbers beyond Double, lone
    ///   surrogate escapes).
    public static func parse(_ data: Data, maximumNesting: Int = defaultMaximumNesting) throws(JSONParseError) -> JSONValue {
        let bytes = [UInt8](data)
        let syntaxError = JSONSyntaxLocator.firstError(in: bytes, maximumNesting: min(maximumNesting, JSONSyntaxLocator.decoderNestingLimit))
        if let syntaxError, syntaxError.isNestingTooDeep {
            throw positioned(syntaxError, in: bytes)
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            if let syntaxError { throw positioned(syntaxError, in: bytes) }
            throw JSONParseError(reason: describeDecoderFailure(error))
        }
    }

    /// Decodes a whole JSON document held in a byte array.
    public static func parse(_ bytes: [UInt8], maximumNesting: Int = defaultMaximumNesting) throws(JSONParseError) -> JSONValue {
        try parse(Data(bytes), maximumNesting: maximumNesting)
    }

    private static func positioned(_ syntaxError: JSONSyntaxLocator.SyntaxError, in bytes: [UInt8]) -> JSONParseError {
        let position = TextPosition(offset: syntaxError.offset, in: bytes)
        return JSONParseError(line: position.line, column: position.column, reason: syntaxError.reason)
    }

    private static func describeDecoderFailure(_ error: any Error) -> String {
        guard case DecodingError.dataCorrupted(let context) = error else {
            return "the JSON decoder rejected the document"
        }
        if context.codingPath.isEmpty { return context.debugDescription }
        return "value at \(renderCodingPath(context.codingPath)) is \(context.debugDescription)"
    }

    /// `sessions[2].durationSeconds`, the way the catalog messages name places.
    private static func renderCodingPath(_ path: [any CodingKey]) -> String {
        var rendered = ""
        for key in path {
            if let index = key.intValue {
                rendered += "[\(index)]"
            } else {
                rendered += rendered.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return rendered
    }
}

/// A line and column in a byte buffer, both 1-based; LF, CR and CRLF each end one line.
struct TextPosition: Equatable {
    var line: Int
    var column: Int

    init(offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        let hasByteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        var index = hasByteOrderMark ? 3 : 0 // the mark is invisible: it takes no column
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && !(index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"))) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 && byte != UInt8(ascii: "\r") {
                column += 1 // count scalars: UTF-8 continuation bytes (10xxxxxx) do not start one
            }
            index += 1
        }
        self.line = line
        self.column = column
    }
}
