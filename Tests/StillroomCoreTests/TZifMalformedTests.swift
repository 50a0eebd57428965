import StillroomCore
import Testing
import TestSupport

/// Writes TZif bytes from parts, so tests can build files the parser must accept or refuse.
struct TZifBuilder {
    var version: UInt8 = 0x32
    var times: [Int64] = []
    var timeTypes: [UInt8] = []
    var types: [(offset: Int32, isDST: UInt8, designation: UInt8)] = [(0, 0, 0)]
    var characters: [UInt8] = Array("UTC\0".utf8)
    var leaps: [(occurrence: Int64, correction: Int32)] = []
    var indicators: Int? = nil // isstdcnt and isutcnt; nil: typecnt
    var footer: String? = "UTC0"
    /// Header counts to write instead of the real ones: isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt.
    var countOverrides: [Int: UInt32] = [:]

    func bytes() -> [UInt8] {
        if version == 0 { return block(timeSize: 4) }
        var file = block(timeSize: 4, empty: true)
        file += block(timeSize: 8)
        if let footer { file += [0x0A] + Array(footer.utf8) + [0x0A] }
        return file
    }

    private func block(timeSize: Int, empty: Bool = false) -> [UInt8] {
        let indicatorCount = empty ? 0 : (indicators ?? types.count)
        var counts: [UInt32] = empty ? [0, 0, 0, 0, 1, 1]
            : [UInt32(indicatorCount), UInt32(indicatorCount), UInt32(leaps.count), UInt32(times.count),
               UInt32(types.count), UInt32(characters.count)]
        if !empty { for (index, value) in countOverrides { counts[index] = value } }
        var out = Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
        for count in counts { out += bigEndian(Int64(count), size: 4) }
        if empty { return out + [0, 0, 0, 0, 0, 0] + [0] }
        for time in times { out += bigEndian(time, size: timeSize) }
        out += timeTypes
        for type in types { out += bigEndian(Int64(type.offset), size: 4) + [type.isDST, type.designation] }
        out += characters
        for leap in leaps { out += bigEndian(leap.occurrence, size: timeSize) + bigEndian(Int64(leap.correction), size: 4) }
        out += [UInt8](repeating: 0, count: indicatorCount * 2)
        return out
    }

    private func bigEndian(_ value: Int64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

@Suite struct TZifMalformedTests {
    /// A small zone: UTC+1 standard, UTC+2 summer, one change each way in 2024.
    var smallZone: TZifBuilder {
        var builder = TZifBuilder()
        builder.types = [(3600, 0, 0), (7200, 1, 4)]
        builder.characters = Array("CET\0CEST\0".utf8)
        builder.times = [1_711_846_800, 1_729_990_800]
        builder.timeTypes = [1, 0]
        builder.footer = "CET-1CEST,M3.5.0,M10.5.0/3"
        return builder
    }

    func refusal(_ bytes: [UInt8]) -> TZifError? {
        do {
            _ = try TimeZoneRules(tzif: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func theBuilderMakesFilesTheParserReads() throws {
        let rules = try TimeZoneRules(tzif: smallZone.bytes())
        #expect(rules.transitions == [1_711_846_800, 1_729_990_800])
        #expect(rules.localTimeTypes.map(\.abbreviation) == ["CET", "CEST"])
        #expect(rules.utcOffset(at: 1_711_846_800) == 7200)
        #expect(rules.utcOffset(at: 1_743_296_400) == 7200) // 2025: from the footer
    }

    @Test func versionOneFilesHaveNoFooterAndKeepTheLastType() throws {
        var builder = smallZone
        builder.version = 0
        let rules = try TimeZoneRules(tzif: builder.bytes())
        #expect(rules.footer == nil)
        #expect(rules.utcOffset(at: 1_711_846_799) == 3600)
        #expect(rules.utcOffset(at: 1_711_846_800) == 7200)
        #expect(rules.utcOffset(at: 1_743_296_400) == 3600) // no rule after 2024: the last type stays
    }

    @Test func versionsThreeAndFourAreRead() throws {
        for version: UInt8 in [0x33, 0x34] {
            var builder = smallZone
            builder.version = version
            builder.footer = "<-02>2<-01>,M3.5.0/-1,M10.5.0/0" // negative rule times: a version 3 feature
            #expect(throws: Never.self) { _ = try TimeZoneRules(tzif: builder.bytes()) }
        }
    }

    @Test func anEmptyFooterMeansNoRule() throws {
        var builder = smallZone
        builder.footer = ""
        let rules = try TimeZoneRules(tzif: builder.bytes())
        #expect(rules.footer == nil)
        #expect(rules.utcOffset(at: 1_743_296_400) == 3600)
    }

    @Test func leapSecondCorrectionsAreTakenOutOfTransitionTimes() throws {
        var builder = smallZone
        // Two leap seconds before 2024, as a "right/" file would count them.
        builder.leaps = [(78_796_800, 1), (94_694_401, 2)]
        builder.times = [1_711_846_802, 1_729_990_802]
        let rules = try TimeZoneRules(tzif: builder.bytes())
        #expect(rules.transitions == [1_711_846_800, 1_729_990_800])
    }

    @Test func truncatedFilesAreRefusedAtEveryLength() {
        let whole = smallZone.bytes()
        for length in 0..<(whole.count - 1) {
            let error = refusal(Array(whole[..<length]))
            #expect(error != nil, "accepted \(length) of \(whole.count) bytes")
        }
        #expect(refusal([]) == .truncated(section: "the header", offset: 0, needed: 44, available: 0))
    }

    @Test func theRealBerlinFileCutShortIsRefused() throws {
        let berlin = Files.read("/usr/share/zoneinfo/Europe/Berlin")
        try #require(!berlin.isEmpty)
        for length in [10, 44, 100, berlin.count / 2, berlin.count - 30, berlin.count - 1] {
            #expect(refusal(Array(berlin[..<length])) != nil, "accepted \(length) bytes")
        }
    }

    @Test func badMagicAndUnknownVersions() {
        var bytes = smallZone.bytes()
        bytes[2] = UInt8(ascii: "X")
        #expect(refusal(bytes) == .badMagic(offset: 0))
        var version = smallZone
        version.version = UInt8(ascii: "9")
        #expect(refusal(version.bytes()) == .unsupportedVersion(UInt8(ascii: "9")))
        #expect(refusal(Array("#!/bin/sh\necho this is not a zone file at all, not at all\n".utf8)) == .badMagic(offset: 0))
        // A second header that is not one.
        var second = smallZone.bytes()
        second[44 + 7] = UInt8(ascii: "x")
        #expect(refusal(second) == .badMagic(offset: 51))
    }

    @Test func countsThatOverflowTheDataAreRefusedBeforeReading() {
        var huge = smallZone
        huge.countOverrides = [3: .max] // timecnt 4 294 967 295
        guard case .truncated(let section, _, let needed, _)? = refusal(huge.bytes()) else {
            Issue.record("expected a truncation error")
            return
        }
        #expect(section == "the data block the header announces")
        #expect(needed > 4_294_967_295 * 9)
        var chars = smallZone
        chars.countOverrides = [5: 1_000_000]
        #expect(refusal(chars.bytes()) != nil)
    }

    @Test func countsTheFormatForbids() {
        var noTypes = smallZone
        noTypes.countOverrides = [4: 0]
        #expect(refusal(noTypes.bytes()) == .invalidCount("typecnt is 0; a zone needs at least one local time type"))
        var noCharacters = smallZone
        noCharacters.countOverrides = [5: 0]
        #expect(refusal(noCharacters.bytes()) == .invalidCount("charcnt is 0; designations need at least one byte"))
        var oddIndicators = smallZone
        oddIndicators.indicators = 1
        #expect(refusal(oddIndicators.bytes()) == .invalidCount("isutcnt 1 is neither 0 nor typecnt 2"))
    }

    @Test func unorderedTransitionsAndOutOfRangeIndexes() {
        var unordered = smallZone
        unordered.times = [1_729_990_800, 1_711_846_800]
        #expect(refusal(unordered.bytes()) == .notAscending(section: "transition times", index: 1))
        var badType = smallZone
        badType.timeTypes = [1, 2]
        #expect(refusal(badType.bytes()) == .transitionTypeOutOfRange(transition: 1, type: 2, typeCount: 2))
        var badDesignation = smallZone
        badDesignation.types[1].designation = 40
        #expect(refusal(badDesignation.bytes())
            == .invalidLocalTimeType(index: 1, reason: "designation index 40 is past the 9 designation bytes"))
        var badFlag = smallZone
        badFlag.types[0].isDST = 7
        #expect(refusal(badFlag.bytes()) == .invalidLocalTimeType(index: 0, reason: "isdst is 7, not 0 or 1"))
        var badOffset = smallZone
        badOffset.types[0].offset = .min
        #expect(refusal(badOffset.bytes()) == .invalidLocalTimeType(index: 0, reason: "UTC offset -2^31 is not allowed"))
        var leaps = smallZone
        leaps.leaps = [(94_694_401, 2), (78_796_800, 1)]
        #expect(refusal(leaps.bytes()) == .notAscending(section: "leap-second occurrences", index: 1))
    }

    @Test func footersMustBeNewlineFramedValidRules() throws {
        var missing = smallZone
        missing.footer = nil
        #expect(refusal(missing.bytes()) == .malformedFooter("missing (the file ends after the version 2+ data block)"))
        var bytes = smallZone.bytes()
        bytes.removeLast()
        #expect(refusal(bytes) == .malformedFooter("the TZ string has no closing newline"))
        var garbage = smallZone
        garbage.footer = "CET-1CEST,M3.5.0"
        guard case .invalidFooterRule(let rule)? = refusal(garbage.bytes()) else {
            Issue.record("expected a footer rule error")
            return
        }
        #expect(rule.text == "CET-1CEST,M3.5.0")
        var binary = smallZone
        binary.footer = "CET-1\u{7F}"
        #expect(refusal(binary.bytes()) == .malformedFooter("the TZ string holds bytes that are not printable ASCII"))
    }

    @Test func theFooterTakesOverAtTheLastTransition() throws {
        // Type 0 until 2024-11-01, then the table says CET but the footer says +03: the footer wins from
        // the last transition on, and that is where the change is reported.
        var builder = TZifBuilder()
        builder.types = [(0, 0, 0), (3600, 0, 4)]
        builder.characters = Array("UTC\0CET\0".utf8)
        builder.times = [1_730_419_200]
        builder.timeTypes = [1]
        builder.footer = "<+03>-3"
        let rules = try TimeZoneRules(tzif: builder.bytes())
        #expect(rules.utcOffset(at: 1_730_419_199) == 0)
        #expect(rules.utcOffset(at: 1_730_419_200) == 10_800)
        #expect(rules.nextChange(after: 0) == 1_730_419_200)
        #expect(rules.nextChange(after: 1_730_419_200) == nil)
    }

    @Test func rulesBuiltFromPartsAreChecked() {
        let cet = LocalTimeType(utcOffset: 3600, isDaylightSaving: false, abbreviation: "CET")
        #expect(TimeZoneRules(localTimeTypes: [], transitions: [], transitionTypes: [], footer: nil) == nil)
        #expect(TimeZoneRules(localTimeTypes: [cet], transitions: [2, 1], transitionTypes: [0, 0], footer: nil) == nil)
        #expect(TimeZoneRules(localTimeTypes: [cet], transitions: [1], transitionTypes: [1], footer: nil) == nil)
        #expect(TimeZoneRules(localTimeTypes: [cet], transitions: [1], transitionTypes: [], footer: nil) == nil)
        let rules = TimeZoneRules(localTimeTypes: [cet], transitions: [], transitionTypes: [], footer: nil)
        #expect(rules?.utcOffset(at: 0) == 3600)
        #expect(rules?.nextChange(after: 0) == nil)
    }

    @Test func errorsReadAsSentences() {
        #expect(TZifError.badMagic(offset: 0).description == "not a TZif file (it does not start with \"TZif\")")
        #expect(TZifError.truncated(section: "the header", offset: 0, needed: 44, available: 10).description
            == "TZif data truncated: the header needs 44 bytes at offset 0, only 10 there")
    }
}
