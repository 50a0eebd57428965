// Reading the `sessions` and `sounds` lists: each element is validated on its own, so one bad entry
// costs only itself, and ids are claimed in file order so the first of two duplicates wins.

/// The outcome of reading one list of entries.
struct EntriesRead<Entry> {
    var entries: [Entry] = []
    var problems: [ContentProblem] = []
    /// Every valid id met in the list, including those of entries that were then refused.
    var claimedIDs: Set<ContentID> = []
    /// False when the list was missing or not an array (that problem is on the reader).
    var listWasRead = false
}

extension CatalogParser {
    /// Reads the array member `key`, one entry at a time.
    /// - Parameter readEntry: validates one element; returns the entry, or `nil` plus its problems.
    static func readEntries<Entry>(
        _ key: String, from reader: inout FieldReader,
        readEntry: (JSONValue, Int, inout Set<ContentID>) -> (entry: Entry?, problems: [ContentProblem])
    ) -> EntriesRead<Entry> {
        var result = EntriesRead<Entry>()
        guard let value = reader.value(key, required: true) else { return result }
        guard let elements = value.arrayValue else {
            reader.report(key, "expected an array, got \(value.briefDescription)")
            return result
        }
        result.listWasRead = true
        for (index, element) in elements.enumerated() {
            let (entry, problems) = readEntry(element, index, &result.claimedIDs)
            result.problems += problems
            if let entry { result.entries.append(entry) }
        }
        return result
    }

    /// Starts reading one entry: it must be an object with a valid, not yet claimed `id`.
    ///
    /// Problems name the entry by id once the id is known to be valid and unique, by index otherwise.
    /// `readRest` is false when nothing more can usefully be said (not an object, or a duplicate id);
    /// with an invalid id the caller still reads the other fields, to report them all at once.
    static func beginEntry(
        _ element: JSONValue, index: Int, listName: String, fileName: String,
        indexed: ContentProblem.Entry, named: (ContentID) -> ContentProblem.Entry,
        claimedIDs: inout Set<ContentID>
    ) -> (reader: FieldReader, id: ContentID?, readRest: Bool) {
        guard let members = element.objectValue else {
            var reader = FieldReader(members: [:], fileName: fileName, entry: indexed)
            reader.reportEntry("expected an object, got \(element.briefDescription)")
            return (reader, nil, false)
        }
        var reader = FieldReader(members: members, fileName: fileName, entry: indexed)
        guard let id = reader.converted("id", ContentID.init(validating:)) else { return (reader, nil, true) }
        if claimedIDs.contains(id) {
            reader.report("id", "\(quotedForMessage(id.rawValue)) is already used by an earlier entry in \"\(listName)\"; this one is skipped")
            return (reader, id, false)
        }
        claimedIDs.insert(id)
        reader.entry = named(id)
        return (reader, id, true)
    }

    static func readSession(
        _ element: JSONValue, index: Int, fileName: String, source: Source, claimedIDs: inout Set<ContentID>
    ) -> (entry: Session?, problems: [ContentProblem]) {
        var (reader, id, readRest) = beginEntry(
            element, index: index, listName: "sessions", fileName: fileName,
            indexed: .sessionAt(index), named: { .session($0) }, claimedIDs: &claimedIDs)
        guard readRest else { return (nil, reader.problems) }

        let title = reader.displayText("title", maximumLength: 80)
        let theme = reader.choice("theme", as: Theme.self)
        let description = reader.displayText("description", maximumLength: 600)
        let duration = readDuration(&reader)
        let audio = readAudioSource(&reader, source: source)
        let transcript = readAsset("transcript", from: &reader, source: source, required: true)
        let breathCues = readAsset("breathCues", from: &reader, source: source, required: false)
        let license = readLicense(&reader)
        let provenance = readAsset("provenance", from: &reader, source: source, required: true)
        let sideFileDigests = readSideFileDigests(&reader, source: source)

        guard reader.problems.isEmpty, let id, let title, let theme, let description, let duration, let audio,
              let transcript, let license, let provenance else {
            return (nil, reader.problems)
        }
        let session = Session(
            id: id, title: title, theme: theme, description: description, durationSeconds: duration,
            audio: audio, transcript: transcript, breathCues: breathCues, license: license, provenance: provenance,
            sideFileDigests: sideFileDigests)
        return (session, [])
    }

    static func readSound(
        _ element: JSONValue, index: Int, fileName: String, claimedIDs: inout Set<ContentID>
    ) -> (entry: Sound?, problems: [ContentProblem]) {
        var (reader, id, readRest) = beginEntry(
            element, index: index, listName: "sounds", fileName: fileName,
            indexed: .soundAt(index), named: { .sound($0) }, claimedIDs: &claimedIDs)
        guard readRest else { return (nil, reader.problems) }

        let audio = reader.converted("audio", RelativePath.init(validating:))
        let license = readLicense(&reader)
        let provenance = reader.converted("provenance", RelativePath.init(validating:))
        guard reader.problems.isEmpty, let id, let audio, let license, let provenance else {
            return (nil, reader.problems)
        }
        return (Sound(id: id, audio: audio, license: license, provenance: provenance), [])
    }
}
