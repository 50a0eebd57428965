// A byte buffer with the few formatters the history exports need. Exports of many thousand runs are
// written straight into bytes: building a JSONValue tree or interpolating strings per field costs
// tens of microseconds a run, which a Pi Zero turns into seconds.

struct ExportTextWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func append(byte: UInt8) { bytes.append(byte) }

    mutating func append(integer value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        append(digitsOf: value.magnitude, width: 1)
    }

    /// `value` with at least `width` digits (zero-padded); `value` must not be negative.
    mutating func append(padded value: Int, width: Int) {
        if width == 2 && value >= 0 && value < 100 {
            // Months, days, hours, minutes, seconds: the common case, two bytes.
            bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
            return
        }
        append(digitsOf: UInt64(max(0, value)), width: width)
    }

    /// Decimal digits, most significant first, zero-padded to `width` (at most 20).
    private mutating func append(digitsOf value: UInt64, width: Int) {
        // Division by the constant 10 compiles to a multiplication; digits are made backwards.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var remaining = value
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                count += 1
            } while remaining > 0
            while count < min(width, 20) {
                digits[19 - count] = UInt8(ascii: "0")
                count += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// "2024-03-31" (years outside 0...9999 as plain integers, as `CivilDate.description`).
    mutating func append(date: CivilDate) {
        if (0...9999).contains(date.year) { append(padded: date.year, width: 4) } else { append(integer: Int64(date.year)) }
        bytes.append(UInt8(ascii: "-"))
        append(padded: date.month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        append(padded: date.day, width: 2)
    }

    /// "2024-03-31T02:30:00".
    mutating func append(local: LocalDateTime) {
        append(date: local.date)
        bytes.append(UInt8(ascii: "T"))
        append(padded: local.hour, width: 2)
        bytes.append(UInt8(ascii: ":"))
        append(padded: local.minute, width: 2)
        bytes.append(UInt8(ascii: ":"))
        append(padded: local.second, width: 2)
    }

    /// "+02:00", "-03:30", "+00:19:32" (as `LocalDateTime.offsetText`).
    mutating func append(offset: Int32) {
        let magnitude = Int(offset.magnitude)
        bytes.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        append(padded: magnitude / 3600, width: 2)
        bytes.append(UInt8(ascii: ":"))
        append(padded: magnitude % 3600 / 60, width: 2)
        if magnitude % 60 != 0 {
            bytes.append(UInt8(ascii: ":"))
            append(padded: magnitude % 60, width: 2)
        }
    }

    /// "2024-03-31T01:30:00Z", or "...:00.250Z" when there are milliseconds.
    mutating func append(utcMilliseconds milliseconds: Int64) {
        let (seconds, millis) = floorDivision(milliseconds, 1000)
        append(local: LocalDateTime(unixSeconds: seconds, utcOffset: 0))
        if millis != 0 {
            bytes.append(UInt8(ascii: "."))
            append(padded: Int(millis), width: 3)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Seconds rounded to the millisecond: "612.500" (`trimmed`: "612.5", "300").
    mutating func append(seconds: Double, trimmed: Bool) {
        let millis = Int64(Self.millisecondsRounded(seconds))
        if millis < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = millis.magnitude
        append(integer: Int64(magnitude / 1000))
        var fraction = Int(magnitude % 1000)
        var width = 3
        if trimmed {
            if fraction == 0 { return }
            while fraction % 10 == 0 {
                fraction /= 10
                width -= 1
            }
        }
        bytes.append(UInt8(ascii: "."))
        append(padded: fraction, width: width)
    }

    /// `seconds * 1000`, rounded; 0 for values that are not finite or beyond any real duration.
    static func millisecondsRounded(_ seconds: Double) -> Double {
        let millis = (seconds * 1000).rounded()
        return millis.isFinite && abs(millis) < 9e15 ? millis : 0
    }

    /// A JSON string (RFC 8259): quotes, backslashes and control characters escaped, the rest as UTF-8.
    mutating func append(jsonString value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x00..<0x20:
                append("\\u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0x0F))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A CSV field (RFC 4180): quoted, with quotes doubled, only when it holds a comma, a quote, CR or LF.
    mutating func append(csvField value: String) {
        let needsQuotes = value.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }
        guard needsQuotes else {
            append(value)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
