/// Where an update bundle comes from: a file on the box (a USB stick, a copy made over SSH), or an https
/// URL that RAUC streams from without a copy on the card (docs/updates.md).
public enum UpdateSource: Hashable, Sendable, CustomStringConvertible {
    case file(path: String)
    case url(RemoteURL)

    /// RAUC takes only files named `*.raucb`; a path longer than this is not one anyone typed.
    public static let maximumPathLength = 1024

    /// `text` as a source, or why it cannot be one. Files must be absolute paths to a `.raucb`; URLs must be
    /// https (never plain http, not even to this box: a bundle is verified, but its streaming is not the place
    /// for exceptions) to a host on the downloads allow-list.
    public static func parse(_ text: String, allowList: DownloadHostAllowList) -> Result<UpdateSource, UpdateRefusal> {
        guard !text.isEmpty else { return .failure(UpdateRefusal("give a bundle's path or an https URL")) }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            return .failure(UpdateRefusal("the bundle's name contains control characters"))
        }
        if text.contains("://") {
            guard text.lowercased().hasPrefix("https://") else {
                return .failure(UpdateRefusal("updates are fetched over https only, not \(quotedForMessage(text))"))
            }
            let url: RemoteURL
            do {
                url = try RemoteURL(parsing: text)
            } catch {
                return .failure(UpdateRefusal("\(quotedForMessage(text)) is not a URL the box can use: \(error.reason)"))
            }
            if let refusal = allowList.refusal(of: url) { return .failure(UpdateRefusal(refusal)) }
            return .success(.url(url))
        }
        guard text.hasPrefix("/") else {
            return .failure(UpdateRefusal("the bundle's path must be absolute (stillroomctl makes it so), got \(quotedForMessage(text))"))
        }
        guard text.utf8.count <= maximumPathLength else {
            return .failure(UpdateRefusal("the bundle's path is longer than \(maximumPathLength) bytes"))
        }
        guard text.hasSuffix(".raucb"), text.count > ".raucb".count + 1 else {
            return .failure(UpdateRefusal("update bundles are files named *.raucb, got \(quotedForMessage(text))"))
        }
        return .success(.file(path: text))
    }

    /// As the agent and RAUC take it.
    public var description: String {
        switch self {
        case .file(let path): path
        case .url(let url): url.description
        }
    }
}

/// Why an update was not started: one sentence for the owner.
public struct UpdateRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
