// A deliberately small URL type: enough of RFC 3986 to check a download address and to resolve the
// remote manifest's relative references. FoundationEssentials' URL would accept far more than the box
// should ever fetch (user info, fragments, odd schemes), and its parsing rules are not ours to document.

/// An absolute `http` or `https` URL: scheme, host, optional port, path and optional query.
///
/// Parsing accepts plain `http` to any host, because a licence link may be one; whether the box may
/// *download* from it is the separate question `isPermittedForDownload` answers.
public struct RemoteURL: Sendable, Hashable, CustomStringConvertible {
    public enum Scheme: String, Sendable, Hashable {
        case http
        case https
    }

    public static let maximumLength = 2048

    public let scheme: Scheme
    /// Lowercased; an IPv6 literal without its brackets ("::1").
    public let host: String
    /// `nil` when the URL gives none (the scheme's default port applies).
    public let port: Int?
    /// Always starts with "/"; dot segments already removed.
    public let path: String
    /// The text after "?", if there was a "?".
    public let query: String?

    /// Parses an absolute URL such as `https://content.example/sessions/rain.mp3`.
    /// - Throws: `InvalidValue` for anything else: relative references, other schemes, user credentials,
    ///   fragments, spaces, non-ASCII text, bad percent escapes, bad hosts or ports.
    public init(parsing text: String) throws(InvalidValue) {
        try Self.checkCharacters(text)
        let notAbsolute = InvalidValue("is not an absolute URL (expected https://host/path)")
        guard let colon = text.firstIndex(of: ":"), Self.isSchemeName(text[..<colon]) else { throw notAbsolute }
        let schemeName = text[..<colon].lowercased()
        guard let scheme = Scheme(rawValue: schemeName) else {
            throw InvalidValue("uses the scheme \(quotedForMessage(schemeName)); only https (and http to this box itself) are supported")
        }
        let hierarchicalPart = text[text.index(after: colon)...]
        guard hierarchicalPart.hasPrefix("//") else { throw notAbsolute }
        let afterScheme = hierarchicalPart.dropFirst(2)
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        let (host, port) = try Self.parseAuthority(afterScheme[..<authorityEnd])
        let (path, query) = try Self.splitPathAndQuery(afterScheme[authorityEnd...])
        self.init(scheme: scheme, host: host, port: port, path: path.isEmpty ? "/" : removeDotSegments(path), query: query)
    }

    init(scheme: Scheme, host: String, port: Int?, path: String, query: String?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
    }

    /// True for the hosts that name this box itself: `127.0.0.1`, `::1` and `localhost`.
    public var isLoopback: Bool { host == "127.0.0.1" || host == "::1" || host == "localhost" }

    /// Downloads go over https; plain http only to loopback (tests and the local demo server).
    /// Which hosts are permitted at all is the downloader's configuration, not the URL's.
    public var isPermittedForDownload: Bool { scheme == .https || isLoopback }

    /// Throws unless `isPermittedForDownload`, with a message saying why.
    public func requirePermittedForDownload() throws(InvalidValue) {
        guard isPermittedForDownload else {
            throw InvalidValue("uses plain http to \(quotedForMessage(host)); downloads need https (http only for 127.0.0.1, ::1 or localhost)")
        }
    }

    /// The URL as text, hosts lowercased and IPv6 literals bracketed: `https://[::1]:8443/a.mp3?v=2`.
    public var description: String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        let portText = port.map { ":\($0)" } ?? ""
        let queryText = query.map { "?\($0)" } ?? ""
        return "\(scheme.rawValue)://\(hostText)\(portText)\(path)\(queryText)"
    }
}

extension RemoteURL {
    /// Refuses text no URL we accept can contain; shared with relative references.
    static func checkCharacters(_ text: String) throws(InvalidValue) {
        guard !text.isEmpty else { throw InvalidValue("must not be empty") }
        guard text.utf8.count <= maximumLength else {
            throw InvalidValue("is \(text.utf8.count) bytes long; at most \(maximumLength) are allowed")
        }
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if scalar == " " {
                throw InvalidValue("contains a space at position \(offset + 1); write it as %20")
            }
            if scalar == "#" {
                throw InvalidValue("has a fragment (\"#…\"), which a download address cannot use")
            }
            if isControl(scalar) || scalar.value > 0x7E || "\"<>\\^`{|}".unicodeScalars.contains(scalar) {
                throw InvalidValue("has the character \(scalarName(scalar)) at position \(offset + 1), which is not allowed in a URL; percent-encode it")
            }
        }
    }

    /// RFC 3986 scheme: a letter, then letters, digits, "+", "-" or ".".
    static func isSchemeName(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, isASCIILetter(first) else { return false }
        return text.unicodeScalars.allSatisfy { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." }
    }

    private static func parseAuthority(_ authority: Substring) throws(InvalidValue) -> (host: String, port: Int?) {
        guard !authority.contains("@") else {
            throw InvalidValue("contains user credentials (\"…@\"), which are not allowed")
        }
        guard !authority.isEmpty else { throw InvalidValue("has no host") }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw InvalidValue("has an unclosed \"[\" in its host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            if rest.hasPrefix(":") {
                portText = rest.dropFirst()
            } else if !rest.isEmpty {
                throw InvalidValue("has text after the IPv6 address \"[\(host)]\"")
            }
            let isIPv6Character = { (scalar: Unicode.Scalar) in
                ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar) || scalar == ":" || scalar == "."
            }
            guard host.contains(":"), host.unicodeScalars.allSatisfy(isIPv6Character) else {
                throw InvalidValue("has a malformed IPv6 address \"[\(host)]\"")
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            let labels = host.split(separator: ".", omittingEmptySubsequences: false)
            let isHostCharacter = { (scalar: Unicode.Scalar) in isASCIILetter(scalar) || ("0"..."9").contains(scalar) || scalar == "-" }
            guard !host.isEmpty, labels.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(isHostCharacter) }) else {
                throw InvalidValue("has a malformed host \(quotedForMessage(String(host)))")
            }
        }
        var port: Int?
        if let portText {
            guard let number = Int(portText), portText.count <= 5, portText.allSatisfy(\.isASCII), (1...65535).contains(number) else {
                throw InvalidValue("has an invalid port \(quotedForMessage(String(portText))); expected 1-65535")
            }
            port = number
        }
        return (host.lowercased(), port)
    }

    /// Splits "path?query" and checks both against RFC 3986's character classes.
    static func splitPathAndQuery(_ text: Substring) throws(InvalidValue) -> (path: String, query: String?) {
        let path: Substring
        var query: Substring?
        if let mark = text.firstIndex(of: "?") {
            path = text[..<mark]
            query = text[text.index(after: mark)...]
        } else {
            path = text
        }
        try checkComponent(path, extraAllowed: "/", name: "path")
        if let query { try checkComponent(query, extraAllowed: "/?", name: "query") }
        return (String(path), query.map(String.init))
    }

    /// Each character is unreserved, a sub-delimiter, ":", "@", one of `extraAllowed`, or part of "%XX".
    private static func checkComponent(_ text: Substring, extraAllowed: String, name: String) throws(InvalidValue) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "%" {
                guard index + 2 < scalars.count, isHexDigit(scalars[index + 1]), isHexDigit(scalars[index + 2]) else {
                    throw InvalidValue("has a malformed percent escape in its \(name); expected % and two hex digits")
                }
                index += 3
                continue
            }
            let allowed = isASCIILetter(scalar) || ("0"..."9").contains(scalar) || "-._~!$&'()*+,;=:@".unicodeScalars.contains(scalar)
                || extraAllowed.unicodeScalars.contains(scalar)
            guard allowed else {
                throw InvalidValue("has the character \(scalarName(scalar)) in its \(name), which is not allowed there; percent-encode it")
            }
            index += 1
        }
    }
}

private func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }

private func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
    ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
}

/// RFC 3986 section 5.2.4 for absolute paths: "." segments vanish, ".." removes the segment before it
/// (never climbing above the root), and a path that ended in "." or ".." keeps its trailing "/".
func removeDotSegments(_ path: String) -> String {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    var kept: [Substring] = []
    var endsWithSlash = false
    for (position, segment) in segments.enumerated() {
        let isLast = position == segments.count - 1
        switch segment {
        case ".":
            endsWithSlash = isLast
        case "..":
            if !kept.isEmpty { kept.removeLast() }
            endsWithSlash = isLast
        default:
            kept.append(segment)
            endsWithSlash = false
        }
    }
    var result = "/" + kept.joined(separator: "/")
    if endsWithSlash && !kept.isEmpty { result += "/" }
    return result
}
