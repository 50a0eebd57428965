/// One thing wrong in a content file, precise enough to fix without opening a debugger:
/// `catalog.json: session "steady-breath": field "theme": expected one of breathe, focus, unwind, got "sleep"`.
///
/// Problems are values, not thrown errors, because a catalog with one bad entry still loads the rest:
/// the parser returns the good entries together with the list of problems.
public struct ContentProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which entry of the file the problem is in.
    public enum Entry: Sendable, Hashable, CustomStringConvertible {
        /// A session whose id is valid.
        case session(ContentID)
        /// A session whose id is missing or invalid, by its 0-based index in `sessions`.
        case sessionAt(Int)
        case sound(ContentID)
        case soundAt(Int)
        /// A breath cue, by its 0-based index in `cues`.
        case cueAt(Int)

        public var description: String {
            switch self {
            case .session(let id): "session \"\(id)\""
            case .sessionAt(let index): "sessions[\(index)]"
            case .sound(let id): "sound \"\(id)\""
            case .soundAt(let index): "sounds[\(index)]"
            case .cueAt(let index): "cues[\(index)]"
            }
        }
    }

    /// The file's name as the user knows it ("catalog.json").
    public var fileName: String
    /// `nil` for problems with the file as a whole.
    public var entry: Entry?
    /// The JSON member, dotted for nested ones ("remote.sha256"); `nil` when the problem is the entry itself.
    public var field: String?
    /// What is wrong, as a sentence fragment that follows the field: "must not be empty".
    public var message: String

    public init(fileName: String, entry: Entry? = nil, field: String? = nil, message: String) {
        self.fileName = fileName
        self.entry = entry
        self.field = field
        self.message = message
    }

    public var description: String {
        var parts = [fileName]
        if let entry { parts.append(entry.description) }
        if let field { parts.append("field \"\(field)\"") }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}

/// A content file refused as a whole (a breath-cue sidecar with a bad cue), with every problem found.
public struct ContentFileRejected: Error, Sendable, Hashable, CustomStringConvertible {
    public var problems: [ContentProblem]

    public init(problems: [ContentProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
