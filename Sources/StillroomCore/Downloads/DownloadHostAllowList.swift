/// The hosts the box may download from: exact names, nothing else.
///
/// No wildcards and no suffix matching: `content.example` does not admit `cdn.content.example` or
/// `content.example.evil`. Hosts compare lowercased, IPv6 literals without brackets (`::1`), as
/// `RemoteURL` keeps them. The scheme rule (https, or http to loopback) is checked as well, so a URL the
/// allow-list admits is always one the box may fetch.
public struct DownloadHostAllowList: Sendable, Hashable {
    public let hosts: Set<String>

    /// - Parameter hosts: names such as `content.stillroom.example`, or `127.0.0.1` for the demo server.
    ///   Brackets around IPv6 literals are removed; case is ignored.
    public init(_ hosts: [String]) {
        self.hosts = Set(hosts.map { host in
            var text = host.lowercased()
            if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
            return text
        })
    }

    /// Whether `url` may be downloaded.
    public func permits(_ url: RemoteURL) -> Bool { refusal(of: url) == nil }

    /// Why `url` may not be downloaded, or nil when it may.
    public func refusal(of url: RemoteURL) -> String? {
        guard url.isPermittedForDownload else {
            return "\(url.description) uses plain http, which is only allowed to this box itself"
        }
        guard hosts.contains(url.host) else {
            return "the host \(quotedForMessage(url.host)) is not on the list of download hosts"
        }
        return nil
    }

    /// Where a redirect from `url` leads, if the box may follow it.
    /// - Parameter location: the `Location` header, absolute or relative (resolved as RFC 3986 says).
    public func followRedirect(from url: RemoteURL, location: String?) -> Result<RemoteURL, DownloadFailure> {
        guard let location, !location.isEmpty else {
            return .failure(.badResponse("a redirect without a Location header"))
        }
        let target: RemoteURL
        do {
            target = try url.resolving(location)
        } catch {
            return .failure(.redirectRefused("the Location \(quotedForMessage(location)) \(error.reason)"))
        }
        if let refusal = refusal(of: target) { return .failure(.redirectRefused(refusal)) }
        return .success(target)
    }
}
