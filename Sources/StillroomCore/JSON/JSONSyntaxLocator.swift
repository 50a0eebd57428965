// Finds where a JSON document first breaks the grammar of RFC 8259 (as relaxed by JSONDecoder, which
// accepts one trailing comma in a container), so a malformed catalog can be
// reported as "line 12, column 5" instead of "not valid JSON", and enforces a nesting limit before
// JSONDecoder sees the bytes. It is linear and iterative (an explicit stack), so hostile input can
// neither exhaust the stack nor take long.

/// Locates the first syntax error in a JSON document.
enum JSONSyntaxLocator {
    struct SyntaxError: Equatable {
        /// Byte offset of the offending character (or of the end, when input ran out).
        var offset: Int
        var reason: String
        /// True when the only fault found is nesting deeper than allowed.
        var isNestingTooDeep = false
    }

    private enum Expectation {
        case value
        case valueOrArrayEnd
        case keyOrObjectEnd
        case colon
        case commaOrEnd
    }

    /// JSONDecoder refuses documents nested deeper than this (measured on swift-foundation 6.3).
    static let decoderNestingLimit = 512

    /// The first syntax error, or `nil` when the bytes are well-formed JSON.
    /// - Parameter maximumNesting: how many arrays and objects may be open at once.
    static func firstError(in bytes: [UInt8], maximumNesting: Int = decoderNestingLimit) -> SyntaxError? {
        var scanner = Scanner(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
        var openContainers: [UInt8] = [] // "[" or "{" for each container not yet closed
        var expectation = Expectation.value

        while true {
            scanner.skipWhitespace()
            guard let byte = scanner.current else {
                if openContainers.isEmpty && expectation == .commaOrEnd { return nil }
                return SyntaxError(offset: scanner.index, reason: "unexpected end of input")
            }
            switch expectation {
            case .value, .valueOrArrayEnd:
                if expectation == .valueOrArrayEnd && byte == UInt8(ascii: "]") {
                    openContainers.removeLast()
                    scanner.index += 1
                    expectation = .commaOrEnd
                    continue
                }
                if (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")) && openContainers.count == maximumNesting {
                    return SyntaxError(
                        offset: scanner.index, reason: "arrays and objects nested more than \(maximumNesting) deep", isNestingTooDeep: true)
                }
                switch byte {
                case UInt8(ascii: "{"):
                    openContainers.append(byte)
                    scanner.index += 1
                    expectation = .keyOrObjectEnd
                case UInt8(ascii: "["):
                    openContainers.append(byte)
                    scanner.index += 1
                    expectation = .valueOrArrayEnd
                case UInt8(ascii: "\""):
                    if let error = scanner.scanString() { return error }
                    expectation = .commaOrEnd
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if let error = scanner.scanNumber() { return error }
                    expectation = .commaOrEnd
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    if let error = scanner.scanLiteral() { return error }
                    expectation = .commaOrEnd
                default:
                    return SyntaxError(offset: scanner.index, reason: "expected a value, found \(scanner.describeCurrent())")
                }
            case .keyOrObjectEnd:
                if byte == UInt8(ascii: "}") {
                    openContainers.removeLast()
                    scanner.index += 1
                    expectation = .commaOrEnd
                    continue
                }
                guard byte == UInt8(ascii: "\"") else {
                    return SyntaxError(offset: scanner.index, reason: "expected a quoted member name, found \(scanner.describeCurrent())")
                }
                if let error = scanner.scanString() { return error }
                expectation = .colon
            case .colon:
                guard byte == UInt8(ascii: ":") else {
                    return SyntaxError(offset: scanner.index, reason: "expected ':' after the member name, found \(scanner.describeCurrent())")
                }
                scanner.index += 1
                expectation = .value
            case .commaOrEnd:
                guard let innermost = openContainers.last else {
                    return SyntaxError(offset: scanner.index, reason: "unexpected \(scanner.describeCurrent()) after the end of the document")
                }
                let closer = innermost == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
                if byte == UInt8(ascii: ",") {
                    scanner.index += 1
                    // JSONDecoder accepts one trailing comma before a closer, so the locator does too.
                    expectation = innermost == UInt8(ascii: "[") ? .valueOrArrayEnd : .keyOrObjectEnd
                } else if byte == closer {
                    openContainers.removeLast()
                    scanner.index += 1
                } else {
                    return SyntaxError(offset: scanner.index, reason: "expected ',' or '\(Character(Unicode.Scalar(closer)))', found \(scanner.describeCurrent())")
                }
            }
        }
    }

    /// A cursor over the bytes with one scanning routine per JSON token.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// "'x'" for printable ASCII, "U+00E9" for anything else, "the end of input" past the end.
        func describeCurrent() -> String {
            guard let byte = current else { return "the end of input" }
            if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            let tail = bytes[index..<min(index + 4, bytes.count)]
            let scalar = String(decoding: tail, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
            return scalarName(scalar)
        }

        mutating func scanString() -> SyntaxError? {
            index += 1 // opening quote
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return nil
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else { break }
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            index += 1
                            guard let digit = current, isHexDigit(digit) else {
                                return SyntaxError(offset: index, reason: "expected four hex digits after \\u")
                            }
                        }
                    } else if !"\"\\/bfnrt".utf8.contains(escaped) {
                        return SyntaxError(offset: index, reason: "invalid escape \\\(describeCurrent())")
                    }
                    index += 1
                case 0x00..<0x20:
                    return SyntaxError(offset: index, reason: "unescaped control character \(describeCurrent()) in a string")
                default:
                    index += 1
                }
            }
            return SyntaxError(offset: index, reason: "unterminated string")
        }

        mutating func scanNumber() -> SyntaxError? {
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, isDigit(first) else {
                return SyntaxError(offset: index, reason: "expected a digit, found \(describeCurrent())")
            }
            index += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if current == UInt8(ascii: ".") {
                index += 1
                guard let digit = current, isDigit(digit) else {
                    return SyntaxError(offset: index, reason: "expected a digit after '.', found \(describeCurrent())")
                }
                skipDigits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard let digit = current, isDigit(digit) else {
                    return SyntaxError(offset: index, reason: "expected a digit in the exponent, found \(describeCurrent())")
                }
                skipDigits()
            }
            return nil
        }

        mutating func scanLiteral() -> SyntaxError? {
            let start = index
            for literal in ["true", "false", "null"] where bytes[start...].starts(with: literal.utf8) {
                index += literal.utf8.count
                return nil
            }
            return SyntaxError(offset: start, reason: "expected true, false or null")
        }

        private mutating func skipDigits() {
            while let byte = current, isDigit(byte) { index += 1 }
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        private func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
        }
    }
}
