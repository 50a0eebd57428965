/// What the downloader needs from an HTTP response's status line and headers.
public struct ResponseHead: Sendable, Hashable {
    public var status: Int
    /// `Location`, for redirects.
    public var location: String?
    /// `Content-Length`: the size of this response's body.
    public var contentLength: Int64?
    /// `Content-Range` of a 206 answer.
    public var contentRange: ContentRange?

    public init(status: Int, location: String? = nil, contentLength: Int64? = nil, contentRange: ContentRange? = nil) {
        self.status = status
        self.location = location
        self.contentLength = contentLength
        self.contentRange = contentRange
    }

    /// Builds a head from raw header lines (`Name: value`), as an HTTP client collects them.
    /// Unknown headers are ignored; a malformed Content-Length or Content-Range is left out
    /// (and a 206 without a usable Content-Range is then refused by the job).
    public init(status: Int, headerLines: [String]) {
        self.init(status: status)
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingASCIISpaces()
            switch name {
            case "location": location = value
            case "content-length": contentLength = Int64(value).flatMap { $0 >= 0 ? $0 : nil }
            case "content-range": contentRange = ContentRange(parsing: value)
            default: break
            }
        }
    }

    /// The status of an HTTP status line (`HTTP/1.1 206 Partial Content`), or nil.
    public static func status(ofStatusLine line: String) -> Int? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3, let status = Int(parts[1]) else { return nil }
        return status
    }
}

/// `Content-Range: bytes first-last/complete` (RFC 9110 §14.4), the only form a 206 to one range uses.
public struct ContentRange: Sendable, Hashable {
    public var first: Int64
    public var last: Int64
    /// The whole file's size; nil when the server wrote `*`.
    public var completeLength: Int64?

    public init(first: Int64, last: Int64, completeLength: Int64?) {
        self.first = first
        self.last = last
        self.completeLength = completeLength
    }

    /// nil unless `text` is `bytes first-last/complete` with first <= last (< complete).
    public init?(parsing text: String) {
        let trimmed = text.trimmingASCIISpaces()
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst(6).trimmingASCIISpaces()
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let ends = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard ends.count == 2, let first = Self.number(ends[0]), let last = Self.number(ends[1]), first <= last else { return nil }
        var complete: Int64?
        if halves[1] != "*" {
            guard let value = Self.number(halves[1]), last < value else { return nil }
            complete = value
        }
        self.init(first: first, last: last, completeLength: complete)
    }

    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}

extension StringProtocol {
    func trimmingASCIISpaces() -> String {
        // "\r\n" is one Character (a grapheme cluster), so it is listed on its own.
        let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\r" || c == "\n" || c == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !isSpace($0) })!
        return String(self[start...end])
    }
}
