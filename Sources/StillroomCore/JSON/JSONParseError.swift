/// Why a byte sequence is not a usable JSON document, and where, when that is known.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the first syntax error (lines end at LF, CR or CRLF), if it is a syntax error.
    public var line: Int?
    /// 1-based column of the first syntax error, counted in Unicode scalars.
    public var column: Int?
    /// What is wrong, without the position: "expected ',' or ']', found '}'".
    public var reason: String

    public init(line: Int? = nil, column: Int? = nil, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// "malformed JSON at line 3, column 7: expected a value, found ','".
    public var description: String {
        if let line, let column {
            return "malformed JSON at line \(line), column \(column): \(reason)"
        }
        return "malformed JSON: \(reason)"
    }
}
