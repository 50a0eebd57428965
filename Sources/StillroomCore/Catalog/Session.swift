/// One recording in the library, with everything the player, the transcript view and the
/// licence screen need. Built only by `CatalogParser`, so every field has passed validation.
public struct Session: Sendable, Hashable, Identifiable {
    public var id: ContentID
    /// 1-80 characters, no control characters.
    public var title: String
    public var theme: Theme
    /// 1-600 characters, no control characters (not even line breaks: the screen wraps).
    public var description: String
    /// What the catalog declares, in seconds (0 < d <= 3600); checked against the decoded audio with
    /// `durationProblem(measuredSeconds:fileName:)`.
    public var durationSeconds: Double
    public var audio: AudioSource
    /// A WebVTT file.
    public var transcript: AssetLocation
    /// A breath-cue sidecar, for sessions that pace breathing.
    public var breathCues: AssetLocation?
    public var license: License
    /// The provenance record (how and by whom the recording was made).
    public var provenance: AssetLocation
    /// A downloadable session's side files' digests, from its signed list (`sideFileSha256`), by field
    /// name: "transcript", "breathCues", "provenance". The downloader takes a side file only when it matches.
    public var sideFileDigests: [String: SHA256Digest]

    public init(
        id: ContentID, title: String, theme: Theme, description: String, durationSeconds: Double,
        audio: AudioSource, transcript: AssetLocation, breathCues: AssetLocation? = nil,
        license: License, provenance: AssetLocation, sideFileDigests: [String: SHA256Digest] = [:]
    ) {
        self.id = id
        self.title = title
        self.theme = theme
        self.description = description
        self.durationSeconds = durationSeconds
        self.audio = audio
        self.transcript = transcript
        self.breathCues = breathCues
        self.license = license
        self.provenance = provenance
        self.sideFileDigests = sideFileDigests
    }
}
