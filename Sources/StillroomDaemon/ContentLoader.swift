import MPG123Decoder
import SQLiteStore
import StillroomCore

/// The bundled content as the daemon uses it: the catalog, and the measured length of each recording.
struct LoadedContent {
    var catalog: Catalog
    /// Exact lengths of the bundled recordings, measured by mpg123.
    var lengths: [ContentID: AudioLengthRecord]
    /// What was wrong, one line each (already logged).
    var problems: [String]
    let directory: String

    static let empty = LoadedContent(catalog: .empty, lengths: [:], problems: [], directory: "")

    func path(of location: RelativePath) -> String { directory + "/" + location.rawValue }

    /// The file a session plays from, when it is on the box.
    func audioPath(of session: Session) -> String? {
        guard case .bundled(let path) = session.audio else { return nil }
        return self.path(of: path)
    }
}

/// Reads `catalog.json`, checks every bundled session's files, and measures each recording (once: the
/// length is cached in the store by path, size and mtime). A bad entry is reported and left out; the
/// good ones load.
enum ContentLoader {
    static func load(directory: String, store: SQLiteStore?, logger: Logger) -> LoadedContent {
        var problems: [String] = []
        let catalogPath = directory + "/catalog.json"
        let bytes: [UInt8]
        do {
            bytes = try FileReading.bytes(catalogPath)
        } catch {
            logger.error("catalog: \(error)")
            return LoadedContent(catalog: .empty, lengths: [:], problems: ["\(error)"], directory: directory)
        }
        let parsed = CatalogParser.parseCatalog(bytes, fileName: "catalog.json")
        problems += parsed.problems.map(\.description)
        var catalog = parsed.catalog
        var lengths: [ContentID: AudioLengthRecord] = [:]
        catalog.sessions = catalog.sessions.filter { session in
            guard case .bundled(let audio) = session.audio else { return true }
            let content = LoadedContent(catalog: .empty, lengths: [:], problems: [], directory: directory)
            for (field, location) in [("transcript", session.transcript), ("provenance", session.provenance)] {
                if case .bundled(let path) = location, FileReading.identity(content.path(of: path)) == nil {
                    problems.append("catalog.json: session \"\(session.id)\": field \"\(field)\": \(path) is missing")
                    return false
                }
            }
            let audioPath = content.path(of: audio)
            do {
                let length = try measure(audioPath, store: store)
                lengths[session.id] = length
                let seconds = Double(length.frames) / Double(length.sampleRate)
                if let problem = session.durationProblem(measuredSeconds: seconds, fileName: "catalog.json") {
                    problems.append(problem.description) // a wrong label, not a broken session: it still plays
                }
                return true
            } catch {
                problems.append("catalog.json: session \"\(session.id)\": field \"audio\": \(error)")
                return false
            }
        }
        for problem in problems { logger.warning("content: \(problem)") }
        logger.info("content: \(catalog.sessions.count) sessions, \(catalog.sounds.count) sounds from \(directory)")
        return LoadedContent(catalog: catalog, lengths: lengths, problems: problems, directory: directory)
    }

    /// The exact length of a recording, from the cache when the file is unchanged.
    static func measure(_ path: String, store: SQLiteStore?) throws -> AudioLengthRecord {
        guard let identity = FileReading.identity(path) else {
            throw DecoderError(.missing, path: path, detail: "no such file")
        }
        if let cached = try? store?.audioLength(path: path, size: identity.size,
                                                 modificationTimeNanoseconds: identity.modifiedNanoseconds) {
            return cached
        }
        let decoder = try MP3Decoder(path: path)
        let frames = try decoder.scanLength()
        let record = AudioLengthRecord(path: path, size: identity.size, modificationTimeNanoseconds: identity.modifiedNanoseconds,
                                       frames: frames, sampleRate: decoder.sampleRate)
        try? store?.putAudioLength(record) // a cache: failing to write it only costs a scan next time
        return record
    }
}
