/// A stored setting this version refuses — damaged, or accepted by an older version under a looser rule
/// (a day boundary of 23:30) — and the default used instead. The daemon logs it, tells the owner with a
/// notice and stores the replacement, so what the box does and what is saved agree from then on.
public struct StoredSettingProblem: Equatable, Sendable, CustomStringConvertible {
    public let key: String
    public let storedValue: String
    /// What the key takes (the setting's own refusal message).
    public let reason: String
    /// The value used instead: the key's default.
    public let replacement: String

    /// The log line.
    public var description: String { "setting \(key): \(reason); using \(replacement)" }

    /// The owner's notice: what was saved, why it is not used, what is used, how to change it.
    public var noticeMessage: String {
        "The saved setting \(key) was \"\(storedValue)\", which this version does not accept: \(reason). "
            + "It is now \(replacement). To choose another value: stillroomctl settings set \(key) VALUE."
    }
}
