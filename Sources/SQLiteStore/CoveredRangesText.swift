// The text form of a practice run's covered ranges, stored in `practice_run.covered_ranges`:
// a JSON array of [start, end) pairs in seconds, e.g. [[0,12.5],[30,45.25]]. JSON so that the sqlite3
// shell (json_each) and any later tool can read it; written and parsed here, without Foundation, because
// the shape is fixed and tiny.

import StillroomCore

enum CoveredRangesText {
    /// Encodes ranges; every bound must be finite, non-negative, and start <= end.
    static func encode(_ ranges: [CoveredRange], operation: String) throws(StoreError) -> String {
        var text = "["
        for (index, range) in ranges.enumerated() {
            guard range.start.isFinite, range.end.isFinite, range.start >= 0, range.start <= range.end else {
                throw StoreError.store(.invalidArgument, operation: operation,
                                       message: "covered range \(range) is not a finite, ordered, non-negative range")
            }
            if index > 0 { text += "," }
            text += "[\(number(range.start)),\(number(range.end))]"
        }
        return text + "]"
    }

    /// Shortest text that reads back as the same Double ("12.5", "30", "1e-05").
    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Decodes the stored text; anything but the exact shape is `invalidData`.
    static func decode(_ text: String, operation: String) throws(StoreError) -> [CoveredRange] {
        var parser = Parser(bytes: Array(text.utf8))
        guard let ranges = parser.parseRanges() else {
            throw StoreError.store(.invalidData, operation: operation, message: "malformed covered_ranges: \(text.prefix(80))")
        }
        return ranges
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D {
                index += 1
            }
        }

        mutating func expect(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// Digits, '.', '-', '+', 'e', 'E': what a JSON number is made of (Double() then validates it).
        static func isNumberByte(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || c == 0x2E || c == 0x2D || c == 0x2B || c == 0x65 || c == 0x45
        }

        mutating func number() -> Double? {
            skipSpace()
            let start = index
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            guard index > start, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)),
                  value.isFinite else { return nil }
            return value
        }

        mutating func parseRanges() -> [CoveredRange]? {
            guard expect(0x5B) else { return nil } // [
            var ranges: [CoveredRange] = []
            if !expect(0x5D) { // ]
                repeat {
                    guard expect(0x5B), let start = number(), expect(0x2C), let end = number(), expect(0x5D),
                          start >= 0, start <= end else { return nil }
                    ranges.append(CoveredRange(start: start, end: end))
                } while expect(0x2C)
                guard expect(0x5D) else { return nil }
            }
            skipSpace()
            return index == bytes.count ? ranges : nil
        }
    }
}
