// Reading a POSIX TZ string. ASCII only; every rejection names the position and what was expected.

extension POSIXTimeZone {
    /// POSIX leaves DST without rules to the implementation; like glibc, use the United States rules
    /// (second Sunday in March to first Sunday in November, at 02:00). TZif footers always carry rules.
    public static let defaultRules = (start: ChangeRule(date: .monthWeekDay(month: 3, week: 2, weekday: .sunday)),
                                      end: ChangeRule(date: .monthWeekDay(month: 11, week: 1, weekday: .sunday)))

    /// Parses `text` ("CET-1CEST,M3.5.0,M10.5.0/3", "<+0330>-3:30", "EST5EDT", "UTC0").
    /// - Throws: `POSIXTimeZoneError` with the position of the first problem. A leading ":" (an
    ///   implementation-defined file name, as in `TZ=:Europe/Berlin`) is refused: resolve it to a file.
    public init(parsing text: String) throws(POSIXTimeZoneError) {
        var scanner = TZScanner(text: text)
        let standardName = try scanner.designation(role: "standard time")
        let standardOffset = try scanner.utcOffset(role: "standard time")
        let standard = LocalTimeType(utcOffset: standardOffset, isDaylightSaving: false, abbreviation: standardName)
        guard !scanner.atEnd else {
            self.init(text: text, standard: standard, daylightSaving: nil)
            return
        }
        let daylightName = try scanner.designation(role: "daylight saving time")
        var daylightOffset = standardOffset + 3600
        if !scanner.atEnd && scanner.peek != UInt8(ascii: ",") {
            daylightOffset = try scanner.utcOffset(role: "daylight saving time")
        }
        let daylight = LocalTimeType(utcOffset: daylightOffset, isDaylightSaving: true, abbreviation: daylightName)
        var start = Self.defaultRules.start
        var end = Self.defaultRules.end
        if !scanner.atEnd {
            try scanner.expect(",", what: "\",\" before the DST start rule")
            start = try scanner.changeRule(role: "start")
            try scanner.expect(",", what: "\",\" before the DST end rule")
            end = try scanner.changeRule(role: "end")
        }
        guard scanner.atEnd else { throw scanner.error("unexpected text after the DST end rule") }
        self.init(text: text, standard: standard,
                  daylightSaving: DaylightSaving(type: daylight, start: start, end: end))
    }
}

/// A cursor over the string's bytes.
private struct TZScanner {
    let text: String
    let bytes: [UInt8]
    var index = 0

    init(text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    func error(_ reason: String, at position: Int? = nil) -> POSIXTimeZoneError {
        POSIXTimeZoneError(text: text, position: position ?? index, reason: reason)
    }

    mutating func expect(_ character: Unicode.Scalar, what: String) throws(POSIXTimeZoneError) {
        guard peek == UInt8(ascii: character) else { throw error("expected \(what)") }
        index += 1
    }

    /// `std` or `dst`: three or more letters, or `<` three or more of [A-Za-z0-9+-] `>`.
    mutating func designation(role: String) throws(POSIXTimeZoneError) -> String {
        let start = index
        if peek == UInt8(ascii: ":") && start == 0 {
            throw error("a leading \":\" names a zone file, not rules; read the file instead")
        }
        if peek == UInt8(ascii: "<") {
            index += 1
            let nameStart = index
            while let byte = peek, Self.isQuotedNameByte(byte) { index += 1 }
            guard peek == UInt8(ascii: ">") else {
                throw error(atEnd ? "the \(role) name is missing its closing \">\""
                                  : "the \(role) name may hold only letters, digits, \"+\" and \"-\"")
            }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            index += 1
            guard name.utf8.count >= 3 else { throw error("the \(role) name must have at least 3 characters", at: start) }
            return name
        }
        while let byte = peek, Self.isLetter(byte) { index += 1 }
        let name = String(decoding: bytes[start..<index], as: UTF8.self)
        guard !name.isEmpty else {
            throw error(atEnd ? "expected the \(role) name" : "expected the \(role) name (letters, or <...> quoted)")
        }
        guard name.utf8.count >= 3 else { throw error("the \(role) name must have at least 3 letters", at: start) }
        return name
    }

    /// `[+|-]hh[:mm[:ss]]`, hours 0...24, POSIX sign (positive west), returned as seconds east of UTC.
    mutating func utcOffset(role: String) throws(POSIXTimeZoneError) -> Int32 {
        guard !atEnd else { throw error("expected the \(role) UTC offset (POSIX sign: \"-1\" is UTC+1)") }
        let seconds = try signedTime(maximumHours: 24, what: "the \(role) UTC offset")
        return Int32(-seconds)
    }

    /// `date[/time]` where date is `Jn`, `n` or `Mm.w.d`.
    mutating func changeRule(role: String) throws(POSIXTimeZoneError) -> POSIXTimeZone.ChangeRule {
        let date: POSIXTimeZone.DateRule
        switch peek {
        case UInt8(ascii: "J"):
            index += 1
            let start = index
            let day = try number(maximumDigits: 3, what: "a day 1...365 after \"J\" in the DST \(role) rule")
            guard (1...365).contains(day) else { throw error("Julian day \(day) is outside 1...365", at: start) }
            date = .julianIgnoringLeapDay(day)
        case UInt8(ascii: "M"):
            index += 1
            var start = index
            let month = try number(maximumDigits: 2, what: "a month 1...12 after \"M\" in the DST \(role) rule")
            guard (1...12).contains(month) else { throw error("month \(month) is outside 1...12", at: start) }
            try expect(".", what: "\".\" after the month in the DST \(role) rule")
            start = index
            let week = try number(maximumDigits: 1, what: "a week 1...5 in the DST \(role) rule")
            guard (1...5).contains(week) else { throw error("week \(week) is outside 1...5", at: start) }
            try expect(".", what: "\".\" after the week in the DST \(role) rule")
            start = index
            let weekday = try number(maximumDigits: 1, what: "a weekday 0...6 (0 is Sunday) in the DST \(role) rule")
            guard let day = Weekday(rawValue: weekday) else { throw error("weekday \(weekday) is outside 0...6", at: start) }
            date = .monthWeekDay(month: month, week: week, weekday: day)
        case let byte? where Self.isDigit(byte):
            let start = index
            let day = try number(maximumDigits: 3, what: "a day 0...365")
            guard (0...365).contains(day) else { throw error("day \(day) is outside 0...365", at: start) }
            date = .zeroBasedDayOfYear(day)
        default:
            throw error("expected the DST \(role) date (Jn, n or Mm.w.d)")
        }
        guard peek == UInt8(ascii: "/") else { return POSIXTimeZone.ChangeRule(date: date) }
        index += 1
        let time = try signedTime(maximumHours: 167, what: "the DST \(role) time")
        return POSIXTimeZone.ChangeRule(date: date, secondsAfterMidnight: Int32(time))
    }

    /// `[+|-]h[hh][:mm[:ss]]` in seconds, with the sign as written.
    private mutating func signedTime(maximumHours: Int, what: String) throws(POSIXTimeZoneError) -> Int {
        var sign = 1
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
            sign = peek == UInt8(ascii: "-") ? -1 : 1
            index += 1
        }
        let start = index
        let hours = try number(maximumDigits: maximumHours > 99 ? 3 : 2, what: "hours in \(what)")
        guard hours <= maximumHours else { throw error("\(hours) hours is outside 0...\(maximumHours) in \(what)", at: start) }
        var minutes = 0
        var seconds = 0
        if peek == UInt8(ascii: ":") {
            index += 1
            minutes = try sixtieth(what: "minutes in \(what)")
            if peek == UInt8(ascii: ":") {
                index += 1
                seconds = try sixtieth(what: "seconds in \(what)")
            }
        }
        return sign * (hours * 3600 + minutes * 60 + seconds)
    }

    private mutating func sixtieth(what: String) throws(POSIXTimeZoneError) -> Int {
        let start = index
        let value = try number(maximumDigits: 2, what: what)
        guard value <= 59 else { throw error("\(value) is outside 0...59 for \(what)", at: start) }
        return value
    }

    /// One to `maximumDigits` decimal digits.
    private mutating func number(maximumDigits: Int, what: String) throws(POSIXTimeZoneError) -> Int {
        let start = index
        var value = 0
        while let byte = peek, Self.isDigit(byte) {
            guard index - start < maximumDigits else { throw error("too many digits for \(what)", at: start) }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            index += 1
        }
        guard index > start else { throw error("expected \(what)") }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isQuotedNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }
}
