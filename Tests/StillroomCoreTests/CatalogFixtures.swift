import FoundationEssentials
import StillroomCore

/// Catalog documents for the tests: a realistic valid catalog, and builders for variations of it.
enum CatalogFixtures {
    static let digestA = String(repeating: "0123456789abcdef", count: 4)
    static let digestB = String(repeating: "fedcba9876543210", count: 4)

    /// A catalog like the one the box ships: bundled sessions of every theme, two downloads, two sounds.
    static let realisticCatalog = #"""
    {
      "schema": 1,
      "defaultSession": "steady-breath",
      "sessions": [
        {
          "id": "steady-breath",
          "title": "Steady breath",
          "theme": "breathe",
          "description": "Five minutes of slow, even breathing, counted gently in and out.",
          "durationSeconds": 301.46,
          "audio": "sessions/steady-breath/audio.mp3",
          "transcript": "sessions/steady-breath/transcript.vtt",
          "breathCues": "sessions/steady-breath/breath.json",
          "license": { "name": "CC BY 4.0", "attribution": "Stillroom project", "url": "https://creativecommons.org/licenses/by/4.0/" },
          "provenance": "sessions/steady-breath/provenance.json"
        },
        {
          "id": "box-breathing",
          "title": "Four-sided breath",
          "theme": "breathe",
          "description": "In for four, hold for four, out for four, hold for four.",
          "durationSeconds": 420,
          "audio": "sessions/box-breathing/audio.mp3",
          "transcript": "sessions/box-breathing/transcript.vtt",
          "breathCues": "sessions/box-breathing/breath.json",
          "license": { "name": "CC0 1.0", "attribution": "Stillroom project" },
          "provenance": "sessions/box-breathing/provenance.json",
          "comment": "unknown fields are ignored"
        },
        {
          "id": "long-exhale",
          "title": "Longer out-breath",
          "theme": "breathe",
          "description": "Lengthen each exhale a little to settle before sleep.",
          "durationSeconds": 600.25,
          "remote": { "url": "https://content.stillroom.example/sessions/long-exhale.mp3", "bytes": 9604123, "sha256": "\#(digestA)" },
          "transcript": "sessions/long-exhale/transcript.vtt",
          "license": { "name": "CC BY 4.0", "attribution": "Stillroom project" },
          "provenance": "sessions/long-exhale/provenance.json"
        },
        {
          "id": "desk-reset",
          "title": "Desk reset",
          "theme": "focus",
          "description": "A short pause to gather attention before the next task.",
          "durationSeconds": 180,
          "audio": "sessions/desk-reset/audio.mp3",
          "transcript": "sessions/desk-reset/transcript.vtt",
          "license": { "name": "CC BY 4.0", "attribution": "Stillroom project" },
          "provenance": "sessions/desk-reset/provenance.json"
        },
        {
          "id": "single-point",
          "title": "One point of attention",
          "theme": "focus",
          "description": "Rest attention on one sound and return to it when it wanders.",
          "durationSeconds": 900,
          "remote": { "url": "https://content.stillroom.example:8443/sessions/single-point.mp3?v=2", "bytes": 14400500, "sha256": "\#(digestB)" },
          "transcript": "sessions/single-point/transcript.vtt",
          "license": { "name": "CC BY-SA 4.0", "attribution": "Stillroom project and friends" },
          "provenance": "sessions/single-point/provenance.json"
        },
        {
          "id": "body-scan",
          "title": "Evening body scan",
          "theme": "unwind",
          "description": "Move attention slowly from the feet to the crown of the head — café-quiet.",
          "durationSeconds": 1200,
          "audio": "sessions/body-scan/audio.mp3",
          "transcript": "sessions/body-scan/transcript.vtt",
          "license": { "name": "CC BY 4.0", "attribution": "Stillroom project" },
          "provenance": "sessions/body-scan/provenance.json"
        },
        {
          "id": "let-the-day-go",
          "title": "Let the day go",
          "theme": "unwind",
          "description": "Name three things from today, then set each one down.",
          "durationSeconds": 480,
          "audio": "sessions/let-the-day-go/audio.mp3",
          "transcript": "sessions/let-the-day-go/transcript.vtt",
          "license": { "name": "CC BY 4.0", "attribution": "Stillroom project" },
          "provenance": "sessions/let-the-day-go/provenance.json"
        }
      ],
      "sounds": [
        { "id": "chime", "audio": "sounds/chime.mp3", "license": { "name": "CC0 1.0", "attribution": "Stillroom project" }, "provenance": "sounds/chime.provenance.json" },
        { "id": "tick", "audio": "sounds/tick.mp3", "license": { "name": "CC0 1.0", "attribution": "Stillroom project" }, "provenance": "sounds/tick.provenance.json" }
      ]
    }
    """#

    /// A valid bundled session object, to be varied field by field.
    static func session(_ id: String, theme: String = "breathe") -> [String: JSONValue] {
        [
            "id": .string(id),
            "title": "A session",
            "theme": .string(theme),
            "description": "Something calm.",
            "durationSeconds": 300,
            "audio": .string("sessions/\(id)/audio.mp3"),
            "transcript": .string("sessions/\(id)/transcript.vtt"),
            "license": ["name": "CC BY 4.0", "attribution": "Stillroom project"],
            "provenance": .string("sessions/\(id)/provenance.json"),
        ]
    }

    /// A valid remote (download) session object for the bundled catalog.
    static func remoteSession(_ id: String) -> [String: JSONValue] {
        var object = session(id)
        object["audio"] = nil
        object["remote"] = ["url": .string("https://content.stillroom.example/\(id).mp3"), "bytes": 1000, "sha256": .string(digestA)]
        return object
    }

    static let chime: JSONValue = [
        "id": "chime", "audio": "sounds/chime.mp3",
        "license": ["name": "CC0 1.0", "attribution": "Stillroom project"], "provenance": "sounds/chime.provenance.json",
    ]

    /// A whole catalog document around the given sessions.
    static func catalog(
        sessions: [JSONValue], defaultSession: JSONValue? = "steady-breath", sounds: JSONValue? = [chime]
    ) -> JSONValue {
        var document: [String: JSONValue] = ["schema": 1, "sessions": .array(sessions)]
        document["defaultSession"] = defaultSession
        document["sounds"] = sounds
        return .object(document)
    }

    static func encode(_ document: JSONValue) -> [UInt8] {
        // Encoding a JSONValue cannot fail: every case maps to a JSON value.
        [UInt8](try! JSONEncoder().encode(document))
    }

    static func parse(_ document: JSONValue, fileName: String = "catalog.json") -> CatalogParseResult {
        CatalogParser.parseCatalog(encode(document), fileName: fileName)
    }
}
