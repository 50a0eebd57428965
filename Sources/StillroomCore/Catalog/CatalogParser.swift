import FoundationEssentials

/// What parsing a catalog or manifest produced: everything that passed validation, and every problem.
public struct CatalogParseResult: Sendable, Hashable {
    /// Everything that passed validation; possibly empty, always usable.
    public var catalog: Catalog
    /// Empty when the file was entirely valid. The daemon logs each one; entries named here are absent
    /// from `catalog`.
    public var problems: [ContentProblem]

    public init(catalog: Catalog, problems: [ContentProblem]) {
        self.catalog = catalog
        self.problems = problems
    }
}

/// Turns the bytes of `Content/catalog.json` (or of a remote manifest) into a `Catalog`.
///
/// Parsing never throws: a broken file is an expected event on a device whose content can be edited,
/// so the result is always a usable catalog (possibly empty) plus precise problems. One bad session
/// costs only that session. The daemon reads the file; this type does no I/O.
public enum CatalogParser {
    /// How asset references in the file are read.
    enum Source {
        /// `Content/catalog.json`: paths inside the content folder; downloads by absolute URL.
        case bundledCatalog
        /// A remote manifest: every session is a download, and every reference is a URL, possibly
        /// relative to the manifest's own address.
        case remoteManifest(manifestURL: RemoteURL)
    }

    /// Parses the bundled catalog.
    /// - Parameter fileName: how problems name the file ("catalog.json").
    public static func parseCatalog(_ data: Data, fileName: String) -> CatalogParseResult {
        parse(data, fileName: fileName, source: .bundledCatalog)
    }

    /// Same as `parseCatalog(_:fileName:)` for bytes held in an array.
    public static func parseCatalog(_ bytes: [UInt8], fileName: String) -> CatalogParseResult {
        parse(Data(bytes), fileName: fileName, source: .bundledCatalog)
    }

    /// Parses a remote manifest: same shape as the catalog, but every session has `remote` instead of
    /// `audio`, and `remote.url`, `transcript`, `breathCues` and `provenance` are URL references resolved
    /// against `manifestURL`. `defaultSession` and `sounds` are not read.
    public static func parseManifest(_ data: Data, fileName: String, manifestURL: RemoteURL) -> CatalogParseResult {
        parse(data, fileName: fileName, source: .remoteManifest(manifestURL: manifestURL))
    }

    /// Same as `parseManifest(_:fileName:manifestURL:)` for bytes held in an array.
    public static func parseManifest(_ bytes: [UInt8], fileName: String, manifestURL: RemoteURL) -> CatalogParseResult {
        parse(Data(bytes), fileName: fileName, source: .remoteManifest(manifestURL: manifestURL))
    }

    static func parse(_ data: Data, fileName: String, source: Source) -> CatalogParseResult {
        let document: JSONValue
        do {
            document = try JSONValue.parse(data)
        } catch {
            return CatalogParseResult(catalog: .empty, problems: [ContentProblem(fileName: fileName, message: error.description)])
        }
        guard let members = document.objectValue else {
            let problem = ContentProblem(fileName: fileName, message: "expected a JSON object at the top level, got \(document.briefDescription)")
            return CatalogParseResult(catalog: .empty, problems: [problem])
        }
        var reader = FieldReader(members: members, fileName: fileName, entry: nil)
        guard readSchema(&reader) else {
            return CatalogParseResult(catalog: .empty, problems: reader.takeProblems())
        }

        let sessions = readEntries("sessions", from: &reader) { element, index, claimedIDs in
            readSession(element, index: index, fileName: fileName, source: source, claimedIDs: &claimedIDs)
        }
        var problems = reader.takeProblems() + sessions.problems
        var catalog = Catalog(sessions: sessions.entries)
        guard case .bundledCatalog = source else {
            return CatalogParseResult(catalog: catalog, problems: problems)
        }

        if sessions.listWasRead && sessions.claimedIDs.isEmpty && sessions.problems.isEmpty {
            problems.append(ContentProblem(fileName: fileName, field: "sessions", message: "lists no sessions"))
        }
        let sounds = readEntries("sounds", from: &reader) { element, index, claimedIDs in
            readSound(element, index: index, fileName: fileName, claimedIDs: &claimedIDs)
        }
        problems += reader.takeProblems() + sounds.problems
        catalog.sounds = sounds.entries
        catalog.defaultSessionID = readDefaultSession(&reader, sessions: sessions)
        problems += reader.takeProblems()
        return CatalogParseResult(catalog: catalog, problems: problems)
    }

    /// Checks `schema`; anything but the supported version means the rest cannot be trusted to mean
    /// what this firmware thinks, so the caller stops with an empty catalog.
    static func readSchema(_ reader: inout FieldReader) -> Bool {
        guard let value = reader.value("schema", required: true) else { return false }
        guard let version = value.integerValue else {
            reader.report("schema", "expected the whole number \(Catalog.supportedSchema), got \(value.briefDescription)")
            return false
        }
        guard version == Catalog.supportedSchema else {
            reader.report("schema", "unsupported schema version \(version); this firmware reads version \(Catalog.supportedSchema)")
            return false
        }
        return true
    }
}
