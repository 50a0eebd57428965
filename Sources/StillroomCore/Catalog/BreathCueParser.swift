import FoundationEssentials

/// Reads a breath-cue sidecar (`breath.json`):
/// `{ "schema": 1, "cues": [ { "phase": "inhale", "start": 12.0, "end": 16.0 }, … ] }`.
///
/// Unlike the catalog, a sidecar is all or nothing: a breathing guide with a gap or an overlap in the
/// wrong place would mislead, so any bad cue rejects the file (the player then shows no guide) and
/// every problem found is reported together.
public enum BreathCueParser {
    /// - Parameters:
    ///   - fileName: how problems name the file.
    ///   - recordingSeconds: the session's `durationSeconds`; no cue may end after it.
    /// - Throws: `ContentFileRejected` with every problem found.
    public static func parse(_ data: Data, fileName: String, recordingSeconds: Double) throws(ContentFileRejected) -> BreathCueTrack {
        let document: JSONValue
        do {
            document = try JSONValue.parse(data)
        } catch {
            throw ContentFileRejected(problems: [ContentProblem(fileName: fileName, message: error.description)])
        }
        guard let members = document.objectValue else {
            throw ContentFileRejected(problems: [ContentProblem(
                fileName: fileName, message: "expected a JSON object at the top level, got \(document.briefDescription)")])
        }
        var reader = FieldReader(members: members, fileName: fileName, entry: nil)
        guard CatalogParser.readSchema(&reader), let list = reader.value("cues", required: true) else {
            throw ContentFileRejected(problems: reader.problems)
        }
        guard let elements = list.arrayValue, !elements.isEmpty else {
            reader.report("cues", list.arrayValue == nil ? "expected an array, got \(list.briefDescription)" : "lists no cues")
            throw ContentFileRejected(problems: reader.problems)
        }

        var cues: [BreathCue] = []
        var problems: [ContentProblem] = []
        var previous: PreviousCue?
        for (index, element) in elements.enumerated() {
            var cueReader = FieldReader(members: element.objectValue ?? [:], fileName: fileName, entry: .cueAt(index))
            if element.objectValue == nil {
                cueReader.reportEntry("expected an object, got \(element.briefDescription)")
            } else if let cue = readCue(&cueReader, index: index, recordingSeconds: recordingSeconds, previous: &previous) {
                cues.append(cue)
            }
            problems += cueReader.problems
        }
        guard problems.isEmpty else { throw ContentFileRejected(problems: problems) }
        return BreathCueTrack(cues: cues)
    }

    /// Same as `parse(_:fileName:recordingSeconds:)` for bytes held in an array.
    public static func parse(_ bytes: [UInt8], fileName: String, recordingSeconds: Double) throws(ContentFileRejected) -> BreathCueTrack {
        try parse(Data(bytes), fileName: fileName, recordingSeconds: recordingSeconds)
    }

    /// The last cue whose times were valid (even if its phase was not), for the order and overlap checks.
    private struct PreviousCue {
        var index: Int
        var startSeconds: Double
        var endSeconds: Double
    }

    /// One cue; updates `previous` when this cue's times are valid.
    private static func readCue(
        _ reader: inout FieldReader, index: Int, recordingSeconds: Double, previous: inout PreviousCue?
    ) -> BreathCue? {
        let phase = reader.choice("phase", as: BreathPhase.self)
        let start = reader.number("start")
        let end = reader.number("end")
        guard let start, let end else { return nil }
        let seconds = { (value: Double) in "\(formatNumberForMessage(value)) s" }
        let problemsBefore = reader.problems.count
        if start < 0 {
            reader.report("start", "must not be negative, got \(formatNumberForMessage(start))")
        }
        if end <= start {
            reader.report("end", "must be after the start (\(seconds(start))), got \(formatNumberForMessage(end))")
        } else if end > recordingSeconds {
            reader.report("end", "is past the end of the recording (\(seconds(recordingSeconds))), got \(formatNumberForMessage(end))")
        }
        if let previous {
            if start < previous.startSeconds {
                reader.report("start", "\(seconds(start)) is before the start of cues[\(previous.index)] (\(seconds(previous.startSeconds))); cues must be sorted")
            } else if start < previous.endSeconds {
                reader.report("start", "\(seconds(start)) is before the end of cues[\(previous.index)] (\(seconds(previous.endSeconds))); cues must not overlap")
            }
        }
        guard reader.problems.count == problemsBefore else { return nil }
        previous = PreviousCue(index: index, startSeconds: start, endSeconds: end)
        guard let phase else { return nil }
        return BreathCue(phase: phase, startSeconds: start, endSeconds: end)
    }
}
