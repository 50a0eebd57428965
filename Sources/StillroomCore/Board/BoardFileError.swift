/// One thing wrong in a board file, with its line: `board.conf:7: "active" must be low or high, not "lo"`.
public struct BoardFileProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's name as given to the parser.
    public var fileName: String
    /// 1-based; nil for a problem with the file as a whole (a missing section).
    public var line: Int?
    /// What is wrong and, where it helps, what to write instead.
    public var message: String

    public init(fileName: String, line: Int?, message: String) {
        self.fileName = fileName
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(fileName):\(line): \(message)" }
        return "\(fileName): \(message)"
    }
}

/// A board file refused, with every problem found (in line order; whole-file problems last).
public struct BoardFileRejected: Error, Sendable, Hashable, CustomStringConvertible {
    public var problems: [BoardFileProblem]

    public init(problems: [BoardFileProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
