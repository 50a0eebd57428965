// Reading a JSON object member by member, the way validation needs it: every member is checked, every
// failure becomes a ContentProblem naming file, entry and field, and reading goes on so one pass reports
// everything wrong with an entry.

/// Reads the members of one JSON object, recording a problem for each one that is missing or wrong.
///
/// Each accessor returns `nil` when the member is absent or invalid (and records why); the caller keeps
/// the entry only if `problems` stayed empty. An optional member given as `null` counts as absent.
struct FieldReader {
    let members: [String: JSONValue]
    let fileName: String
    var entry: ContentProblem.Entry?
    /// "remote." while reading the members of a nested object, so problems say "remote.sha256".
    let fieldPrefix: String
    private(set) var problems: [ContentProblem] = []

    init(members: [String: JSONValue], fileName: String, entry: ContentProblem.Entry?, fieldPrefix: String = "") {
        self.members = members
        self.fileName = fileName
        self.entry = entry
        self.fieldPrefix = fieldPrefix
    }

    func has(_ key: String) -> Bool { members[key] != nil }

    /// The problems recorded so far, leaving none behind (so a caller can interleave them in file order).
    mutating func takeProblems() -> [ContentProblem] {
        defer { problems = [] }
        return problems
    }

    mutating func report(_ key: String, _ message: String) {
        problems.append(ContentProblem(fileName: fileName, entry: entry, field: fieldPrefix + key, message: message))
    }

    /// A problem with the entry as a whole rather than one of its fields.
    mutating func reportEntry(_ message: String) {
        problems.append(ContentProblem(fileName: fileName, entry: entry, field: nil, message: message))
    }

    /// The raw member; a missing required member is reported, a missing or `null` optional one is not.
    mutating func value(_ key: String, required: Bool) -> JSONValue? {
        switch members[key] {
        case nil:
            if required { report(key, "is required but missing") }
            return nil
        case .null? where !required:
            return nil
        case let value?:
            return value
        }
    }

    mutating func string(_ key: String, required: Bool = true) -> String? {
        guard let value = value(key, required: required) else { return nil }
        guard let text = value.stringValue else {
            report(key, "expected a string, got \(value.briefDescription)")
            return nil
        }
        return text
    }

    /// Human-readable text shown on screen: not blank, no control characters, at most `maximumLength`
    /// characters (user-perceived characters, as the screen shows them).
    mutating func displayText(_ key: String, maximumLength: Int) -> String? {
        guard let text = string(key) else { return nil }
        if text.allSatisfy(\.isWhitespace) {
            report(key, "must not be empty or blank")
            return nil
        }
        if let (offset, scalar) = text.unicodeScalars.enumerated().first(where: { isControl($0.element) }) {
            report(key, "contains the control character \(scalarName(scalar)) at position \(offset + 1)")
            return nil
        }
        if text.count > maximumLength {
            report(key, "is \(text.count) characters long; at most \(maximumLength) are allowed")
            return nil
        }
        return text
    }

    mutating func number(_ key: String) -> Double? {
        guard let value = value(key, required: true) else { return nil }
        guard let number = value.doubleValue else {
            report(key, "expected a number, got \(value.briefDescription)")
            return nil
        }
        return number
    }

    /// A string member turned into a checked value (`ContentID`, `RelativePath`, …); a refusal is
    /// reported as `"<value>" <reason>`.
    mutating func converted<Value>(
        _ key: String, required: Bool = true, _ convert: (String) throws(InvalidValue) -> Value
    ) -> Value? {
        guard let text = string(key, required: required) else { return nil }
        do {
            return try convert(text)
        } catch {
            report(key, "\(quotedForMessage(text)) \(error.reason)")
            return nil
        }
    }

    /// One of a closed set of strings, such as a theme.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, as type: Choice.Type) -> Choice?
    where Choice.RawValue == String {
        guard let value = value(key, required: true) else { return nil }
        if let text = value.stringValue, let choice = Choice(rawValue: text) { return choice }
        let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
        report(key, "expected one of \(names), got \(value.briefDescription)")
        return nil
    }

    /// A reader for a nested object; fold its problems back in with `absorb(_:)`.
    mutating func nested(_ key: String, required: Bool = true) -> FieldReader? {
        guard let value = value(key, required: required) else { return nil }
        guard let members = value.objectValue else {
            report(key, "expected an object, got \(value.briefDescription)")
            return nil
        }
        return FieldReader(members: members, fileName: fileName, entry: entry, fieldPrefix: fieldPrefix + key + ".")
    }

    mutating func absorb(_ nested: FieldReader) {
        problems += nested.problems
    }
}
