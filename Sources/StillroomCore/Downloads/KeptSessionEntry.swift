import FoundationEssentials

/// A downloaded session's manifest entry, kept on the box beside its recording (`<id>.session.json`), so the
/// session keeps its title, theme, description, length, licence and provenance when no manifest can be
/// fetched — the usual case for a box at a bedside after a reboot without Wi-Fi.
///
/// The file holds the entry exactly as its manifest gave it, with the manifest's address (relative
/// references in the entry resolve against it):
///
///     {"manifest": "https://content.example/stillroom/manifest.json", "session": { …the entry… }}
///
/// It is read back through the manifest parser, so a kept entry is held to every rule a fresh one is.
public enum KeptSessionEntry {
    /// The bytes of the file for `entry`, listed by the manifest at `manifestURL`.
    public static func encode(entry: JSONValue, manifestURL: RemoteURL) -> [UInt8] {
        let document: JSONValue = .object(["manifest": .string(manifestURL.description), "session": entry])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(document) else { return [] }
        return Array(data)
    }

    /// The session a kept file describes, or the problem that makes it unusable.
    /// - Parameter fileName: how problems name the file.
    public static func decode(_ bytes: [UInt8], fileName: String) -> Result<Session, ContentProblem> {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            return .failure(ContentProblem(fileName: fileName, message: error.description))
        }
        guard let address = document["manifest"]?.stringValue, let manifestURL = try? RemoteURL(parsing: address) else {
            return .failure(ContentProblem(fileName: fileName, field: "manifest", message: "must be the address of the manifest that listed the session"))
        }
        guard let entry = document["session"], entry.objectValue != nil else {
            return .failure(ContentProblem(fileName: fileName, field: "session", message: "must be the session's manifest entry (an object)"))
        }
        let manifest: JSONValue = .object(["schema": .number(Double(Catalog.supportedSchema)), "sessions": .array([entry])])
        let encoder = JSONEncoder()
        guard let data = try? encoder.encode(manifest) else {
            return .failure(ContentProblem(fileName: fileName, message: "could not be read back"))
        }
        let parsed = CatalogParser.parseManifest(data, fileName: fileName, manifestURL: manifestURL)
        guard let session = parsed.catalog.sessions.first else {
            return .failure(parsed.problems.first ?? ContentProblem(fileName: fileName, message: "holds no usable session"))
        }
        return .success(session)
    }

    /// Each session's raw entry in a manifest, by id, for keeping beside the download. Entries without a
    /// valid id are left out (the parser reports them).
    public static func entries(inManifest bytes: [UInt8]) -> [ContentID: JSONValue] {
        guard let sessions = (try? JSONValue.parse(bytes))?["sessions"]?.arrayValue else { return [:] }
        var result: [ContentID: JSONValue] = [:]
        for entry in sessions {
            guard let text = entry["id"]?.stringValue, let id = try? ContentID(validating: text), result[id] == nil else { continue }
            result[id] = entry
        }
        return result
    }
}
