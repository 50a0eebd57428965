// Reading TZif files (RFC 8536, versions 1 to 4).
//
//   header (44 bytes) · v1 data block (32-bit times) · [header · v2+ data block (64-bit times) · footer]
//
// A version 2+ reader skips the v1 block (modern zic leaves it nearly empty) and reads the 64-bit block
// and the footer's TZ string. Every count is checked against the bytes actually present before
// anything is read, so a hostile or truncated file fails with a message rather than a trap.

extension TimeZoneRules {
    /// Reads a TZif file's bytes (`/etc/localtime`, `/usr/share/zoneinfo/Europe/Berlin`).
    ///
    /// Leap-second ("right/") files count leap seconds in their times; their transitions are converted to
    /// POSIX seconds here, so the rules always speak the system clock's time scale.
    /// - Throws: `TZifError` for a truncated file, a bad magic or version, counts the format forbids or
    ///   the data cannot hold, unordered transitions, out-of-range indexes, or a bad footer.
    public init(tzif bytes: [UInt8]) throws(TZifError) {
        var reader = TZifReader(bytes: bytes)
        let first = try reader.header()
        if first.version == 0 {
            let block = try reader.dataBlock(first, timeSize: 4)
            self.init(block: block, footer: nil)
            return
        }
        try reader.skip(first.dataBlockLength(timeSize: 4), section: "version 1 data block")
        let second = try reader.header()
        let block = try reader.dataBlock(second, timeSize: 8)
        let footer = try reader.footer()
        self.init(block: block, footer: footer)
    }

    private init(block: TZifReader.DataBlock, footer: POSIXTimeZone?) {
        // Leap-second files: a file time T stands for POSIX time T - LEAPCORR(T).
        let transitions = block.transitionTimes.map { time -> Int64 in
            var correction: Int64 = 0
            for leap in block.leapSeconds where leap.occurrence <= time { correction = Int64(leap.correction) }
            return time - correction
        }
        self.init(validTypes: block.types, transitions: transitions, transitionTypes: block.transitionTypes, footer: footer)
    }
}

/// A cursor over TZif bytes; every read is bounds-checked.
private struct TZifReader {
    struct Header {
        let version: UInt8
        let isUTCCount: Int
        let isStandardCount: Int
        let leapCount: Int
        let timeCount: Int
        let typeCount: Int
        let charCount: Int

        func dataBlockLength(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
        }
    }

    struct DataBlock {
        var transitionTimes: [Int64] = []
        var transitionTypes: [UInt8] = []
        var types: [LocalTimeType] = []
        var leapSeconds: [(occurrence: Int64, correction: Int32)] = []
    }

    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func header() throws(TZifError) -> Header {
        let start = offset
        try need(44, section: start == 0 ? "the header" : "the version 2+ header")
        guard bytes[offset] == 0x54, bytes[offset + 1] == 0x5A, bytes[offset + 2] == 0x69, bytes[offset + 3] == 0x66 else {
            throw .badMagic(offset: start)
        }
        let version = bytes[offset + 4]
        guard version == 0 || (0x32...0x34).contains(version) else { throw .unsupportedVersion(version) }
        offset += 20
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(UInt32(truncatingIfNeeded: readInteger(size: 4)))) }
        let header = Header(version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                            timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
        guard header.typeCount > 0 else { throw .invalidCount("typecnt is 0; a zone needs at least one local time type") }
        guard header.charCount > 0 else { throw .invalidCount("charcnt is 0; designations need at least one byte") }
        guard header.isUTCCount == 0 || header.isUTCCount == header.typeCount else {
            throw .invalidCount("isutcnt \(header.isUTCCount) is neither 0 nor typecnt \(header.typeCount)")
        }
        guard header.isStandardCount == 0 || header.isStandardCount == header.typeCount else {
            throw .invalidCount("isstdcnt \(header.isStandardCount) is neither 0 nor typecnt \(header.typeCount)")
        }
        // Every count is below 2^32, so the block length fits an Int; compare it with what is there.
        let timeSize = start == 0 ? 4 : 8
        try need(header.dataBlockLength(timeSize: timeSize), section: "the data block the header announces")
        return header
    }

    mutating func dataBlock(_ header: Header, timeSize: Int) throws(TZifError) -> DataBlock {
        var block = DataBlock()
        block.transitionTimes.reserveCapacity(header.timeCount)
        for index in 0..<header.timeCount {
            let time = readInteger(size: timeSize)
            if let previous = block.transitionTimes.last, time <= previous { throw .notAscending(section: "transition times", index: index) }
            block.transitionTimes.append(time)
        }
        block.transitionTypes = Array(bytes[offset..<offset + header.timeCount])
        offset += header.timeCount
        for (index, type) in block.transitionTypes.enumerated() where Int(type) >= header.typeCount {
            throw .transitionTypeOutOfRange(transition: index, type: Int(type), typeCount: header.typeCount)
        }
        var rawTypes: [(offset: Int32, isDST: UInt8, designation: Int)] = []
        for _ in 0..<header.typeCount {
            let utcOffset = Int32(truncatingIfNeeded: readInteger(size: 4))
            rawTypes.append((utcOffset, bytes[offset], Int(bytes[offset + 1])))
            offset += 2
        }
        let characters = bytes[offset..<offset + header.charCount]
        offset += header.charCount
        for (index, raw) in rawTypes.enumerated() {
            guard raw.offset != .min else { throw .invalidLocalTimeType(index: index, reason: "UTC offset -2^31 is not allowed") }
            guard raw.isDST <= 1 else { throw .invalidLocalTimeType(index: index, reason: "isdst is \(raw.isDST), not 0 or 1") }
            guard raw.designation < header.charCount else {
                throw .invalidLocalTimeType(index: index, reason: "designation index \(raw.designation) is past the \(header.charCount) designation bytes")
            }
            let nameStart = characters.startIndex + raw.designation
            let nameEnd = characters[nameStart...].firstIndex(of: 0) ?? characters.endIndex
            block.types.append(LocalTimeType(utcOffset: raw.offset, isDaylightSaving: raw.isDST == 1,
                                             abbreviation: String(decoding: characters[nameStart..<nameEnd], as: UTF8.self)))
        }
        for index in 0..<header.leapCount {
            let occurrence = readInteger(size: timeSize)
            let correction = Int32(truncatingIfNeeded: readInteger(size: 4))
            if let previous = block.leapSeconds.last, occurrence <= previous.occurrence {
                throw .notAscending(section: "leap-second occurrences", index: index)
            }
            block.leapSeconds.append((occurrence, correction))
        }
        for (section, count) in [("standard/wall", header.isStandardCount), ("UT/local", header.isUTCCount)] {
            for index in 0..<count {
                guard bytes[offset] <= 1 else { throw .invalidIndicator(section: section, index: index) }
                offset += 1
            }
        }
        return block
    }

    /// "\n" TZ-string "\n"; an empty string means no rule (nil).
    mutating func footer() throws(TZifError) -> POSIXTimeZone? {
        guard offset < bytes.count else { throw .malformedFooter("missing (the file ends after the version 2+ data block)") }
        guard bytes[offset] == 0x0A else { throw .malformedFooter("does not start with a newline") }
        let start = offset + 1
        guard let end = bytes[start...].firstIndex(of: 0x0A) else { throw .malformedFooter("the TZ string has no closing newline") }
        let ruleBytes = bytes[start..<end]
        guard ruleBytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw .malformedFooter("the TZ string holds bytes that are not printable ASCII")
        }
        offset = end + 1
        guard !ruleBytes.isEmpty else { return nil }
        do {
            return try POSIXTimeZone(parsing: String(decoding: ruleBytes, as: UTF8.self))
        } catch {
            throw .invalidFooterRule(error)
        }
    }

    mutating func skip(_ count: Int, section: String) throws(TZifError) {
        try need(count, section: section)
        offset += count
    }

    private func need(_ count: Int, section: String) throws(TZifError) {
        let available = bytes.count - offset
        guard count <= available else { throw .truncated(section: section, offset: offset, needed: count, available: available) }
    }

    /// A big-endian two's-complement integer of `size` bytes (4 or 8), sign-extended. Bounds were checked.
    private mutating func readInteger(size: Int) -> Int64 {
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        offset += size
        if size == 4 { return Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: value))) }
        return Int64(bitPattern: value)
    }
}
