/// The distinct parts of a recording heard, as sorted, disjoint, merged frame ranges.
///
/// Adding a range returns how many frames were new: replaying a part already heard adds nothing here
/// (though it adds listening time in the ledger).
public struct FrameCoverage: Equatable, Sendable {
    public private(set) var ranges: [Range<Int64>] = []

    public init() {}

    public init(_ ranges: [Range<Int64>]) {
        for range in ranges { _ = add(range) }
    }

    /// Frames covered in all.
    public var total: Int64 { ranges.reduce(0) { $0 + Int64($1.count) } }

    /// Adds `range`; returns the number of frames that were not covered before.
    @discardableResult
    public mutating func add(_ range: Range<Int64>) -> Int64 {
        guard !range.isEmpty else { return 0 }
        let before = total
        var merged = range
        var kept: [Range<Int64>] = []
        var insertAt = 0
        for existing in ranges {
            if existing.upperBound < merged.lowerBound {
                kept.append(existing)
                insertAt = kept.count
            } else if existing.lowerBound > merged.upperBound {
                kept.append(existing)
            } else {
                merged = min(existing.lowerBound, merged.lowerBound)..<max(existing.upperBound, merged.upperBound)
            }
        }
        kept.insert(merged, at: insertAt)
        ranges = kept
        return total - before
    }
}
