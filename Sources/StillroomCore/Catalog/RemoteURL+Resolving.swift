extension RemoteURL {
    /// Resolves a URL reference against this URL, as RFC 3986 section 5.2 does (without fragments).
    ///
    /// The remote manifest names its files relative to its own address (`"steady-rain/audio.mp3"`), so the
    /// same manifest works from any mirror; the downloader calls this with the manifest's URL as `self`.
    /// An absolute reference (`https://…`) is returned as parsed; `//host/x` keeps this URL's scheme;
    /// `/x` keeps the host; anything else is merged with this URL's folder and its dot segments removed.
    /// - Throws: `InvalidValue` if the reference, or the URL it resolves to, is malformed.
    public func resolving(_ reference: String) throws(InvalidValue) -> RemoteURL {
        try Self.checkCharacters(reference)
        if let colon = reference.firstIndex(of: ":"), Self.isSchemeName(reference[..<colon]) {
            return try RemoteURL(parsing: reference)
        }
        if reference.hasPrefix("//") {
            return try RemoteURL(parsing: "\(scheme.rawValue):\(reference)")
        }
        let (referencePath, referenceQuery) = try Self.splitPathAndQuery(reference[...])
        if referencePath.isEmpty {
            return RemoteURL(scheme: scheme, host: host, port: port, path: path, query: referenceQuery ?? query)
        }
        let mergedPath: String
        if referencePath.hasPrefix("/") {
            mergedPath = referencePath
        } else {
            let folder = path[...(path.lastIndex(of: "/") ?? path.startIndex)]
            mergedPath = folder + referencePath
        }
        return RemoteURL(scheme: scheme, host: host, port: port, path: removeDotSegments(mergedPath), query: referenceQuery)
    }
}
