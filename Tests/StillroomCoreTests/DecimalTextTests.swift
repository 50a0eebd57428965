import StillroomCore
import Testing

/// One number grammar for what people type: decimal digits, and a point for fractions of seconds.
@Suite struct DecimalTextTests {
    @Test func wholeNumbersAreDigitsOnly() {
        #expect(DecimalText.wholeNumber("0") == 0)
        #expect(DecimalText.wholeNumber("60") == 60)
        #expect(DecimalText.wholeNumber("007") == 7)
        #expect(DecimalText.wholeNumber("999999999") == 999_999_999)
        for loose in ["", "+10", "-1", "0x10", "1e3", "1.0", " 5", "5 ", "١٢", "1_000", "9999999999"] {
            #expect(DecimalText.wholeNumber(loose) == nil, "\(loose)")
        }
    }

    @Test func integersMayBeNegativeAndNothingElse() {
        #expect(DecimalText.integer("-2") == -2)
        #expect(DecimalText.integer("7") == 7)
        for loose in ["--2", "+2", "-", "-0x2", " -2"] { #expect(DecimalText.integer(loose) == nil, "\(loose)") }
    }

    @Test func decimalsHaveAtMostOnePointWithDigitsOnBothSides() {
        #expect(DecimalText.decimal("90") == 90)
        #expect(DecimalText.decimal("1.5") == 1.5)
        #expect(DecimalText.decimal("0.25") == 0.25)
        for loose in ["", ".5", "5.", "1.2.3", "+1", "-1", "0x10", "0x1p3", "1e3", "inf", "nan", "1,5", "1234567890123456"] {
            #expect(DecimalText.decimal(loose) == nil, "\(loose)")
        }
    }
}
