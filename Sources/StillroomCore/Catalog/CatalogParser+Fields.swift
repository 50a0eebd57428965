// The session fields whose rules go beyond "a string" or "one of": durations, audio sources, asset
// references (paths in the catalog, URLs in a manifest), licences and the default session.

extension CatalogParser {
    /// The longest session the box accepts, in seconds (one hour).
    static let maximumDurationSeconds = 3600.0

    static func readDuration(_ reader: inout FieldReader) -> Double? {
        guard let seconds = reader.number("durationSeconds") else { return nil }
        guard seconds > 0 && seconds <= maximumDurationSeconds else {
            reader.report("durationSeconds", "must be more than 0 and at most \(formatNumberForMessage(maximumDurationSeconds)) seconds, got \(formatNumberForMessage(seconds))")
            return nil
        }
        return seconds
    }

    /// Exactly one of `audio` (a bundled path) and `remote` (a download); a manifest allows only `remote`.
    static func readAudioSource(_ reader: inout FieldReader, source: Source) -> AudioSource? {
        switch source {
        case .bundledCatalog:
            if reader.has("audio") && reader.has("remote") {
                reader.report("audio", "give either \"audio\" (a bundled file) or \"remote\" (a download), not both")
                return nil
            }
            if reader.has("remote") {
                return readRemoteAudio(&reader, source: source).map(AudioSource.remote)
            }
            if !reader.has("audio") {
                reader.report("audio", "is required but missing (or give \"remote\" for a download)")
                return nil
            }
            return reader.converted("audio", RelativePath.init(validating:)).map(AudioSource.bundled)
        case .remoteManifest:
            if reader.has("audio") {
                reader.report("audio", "a remote manifest lists downloads only; give \"remote\" instead")
                return nil
            }
            return readRemoteAudio(&reader, source: source).map(AudioSource.remote)
        }
    }

    /// `remote`: `{ "url", "bytes", "sha256" }`, with a URL the box may download from.
    private static func readRemoteAudio(_ reader: inout FieldReader, source: Source) -> RemoteAudio? {
        guard var remote = reader.nested("remote") else { return nil }
        defer { reader.absorb(remote) }
        let url = remote.converted("url") { (text: String) throws(InvalidValue) -> RemoteURL in
            try downloadURL(text, source: source)
        }
        var byteCount: Int?
        if let value = remote.value("bytes", required: true) {
            if let count = value.integerValue, count > 0 {
                byteCount = count
            } else {
                remote.report("bytes", "expected a whole number of bytes greater than 0, got \(value.briefDescription)")
            }
        }
        let digest = remote.converted("sha256", SHA256Digest.init(validating:))
        guard let url, let byteCount, let digest else { return nil }
        return RemoteAudio(url: url, byteCount: byteCount, sha256: digest)
    }

    /// The side files a downloadable session's list vouches for: `sideFileSha256` `{ "transcript",
    /// "breathCues", "provenance" }`, each a SHA-256. Read only from a remote manifest (bundled files ship in
    /// the image); optional here, so an entry kept before lists carried them still reads, and required by
    /// the downloader before it takes a side file.
    static let sideFileNames = ["transcript", "breathCues", "provenance"]

    static func readSideFileDigests(_ reader: inout FieldReader, source: Source) -> [String: SHA256Digest] {
        guard case .remoteManifest = source, var digests = reader.nested("sideFileSha256", required: false) else { return [:] }
        defer { reader.absorb(digests) }
        var found: [String: SHA256Digest] = [:]
        for name in sideFileNames {
            if let digest = digests.converted(name, required: false, SHA256Digest.init(validating:)) { found[name] = digest }
        }
        return found
    }

    /// A transcript, breath-cue or provenance reference: a content-folder path in the catalog,
    /// a URL (relative to the manifest) in a manifest.
    static func readAsset(_ key: String, from reader: inout FieldReader, source: Source, required: Bool) -> AssetLocation? {
        switch source {
        case .bundledCatalog:
            return reader.converted(key, required: required, RelativePath.init(validating:)).map(AssetLocation.bundled)
        case .remoteManifest:
            return reader.converted(key, required: required) { (text: String) throws(InvalidValue) -> RemoteURL in
                try downloadURL(text, source: source)
            }.map(AssetLocation.remote)
        }
    }

    /// An absolute URL in the catalog; a reference resolved against the manifest's URL in a manifest.
    /// Either way the result must be one the box may download from.
    private static func downloadURL(_ text: String, source: Source) throws(InvalidValue) -> RemoteURL {
        let url: RemoteURL
        switch source {
        case .bundledCatalog: url = try RemoteURL(parsing: text)
        case .remoteManifest(let manifestURL): url = try manifestURL.resolving(text)
        }
        try url.requirePermittedForDownload()
        return url
    }

    /// `license`: `{ "name", "attribution", "url"? }`. The URL is only shown, never fetched, so any
    /// http(s) address will do.
    static func readLicense(_ reader: inout FieldReader) -> License? {
        guard var license = reader.nested("license") else { return nil }
        defer { reader.absorb(license) }
        let name = license.displayText("name", maximumLength: 80)
        let attribution = license.displayText("attribution", maximumLength: 200)
        let url = license.converted("url", required: false, RemoteURL.init(parsing:))
        guard license.problems.isEmpty, let name, let attribution else { return nil }
        return License(name: name, attribution: attribution, url: url)
    }

    /// `defaultSession` must name a bundled session that loaded; otherwise it is reported and left unset
    /// (`Catalog.firstBootSession` then falls back to another bundled session).
    static func readDefaultSession(_ reader: inout FieldReader, sessions: EntriesRead<Session>) -> ContentID? {
        guard let id = reader.converted("defaultSession", ContentID.init(validating:)) else { return nil }
        guard let session = sessions.entries.first(where: { $0.id == id }) else {
            if sessions.claimedIDs.contains(id) {
                reader.report("defaultSession", "names session \"\(id)\", which was skipped because of its problems")
            } else {
                reader.report("defaultSession", "names session \"\(id)\", which is not in the catalog")
            }
            return nil
        }
        guard session.audio.isBundled else {
            reader.report("defaultSession", "names session \"\(id)\", which is a download; the first-boot session must be bundled")
            return nil
        }
        return id
    }
}
