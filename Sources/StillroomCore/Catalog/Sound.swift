/// A short system sound (the reminder chime, the seek tick), always bundled.
public struct Sound: Sendable, Hashable, Identifiable {
    public var id: ContentID
    public var audio: RelativePath
    public var license: License
    public var provenance: RelativePath

    public init(id: ContentID, audio: RelativePath, license: License, provenance: RelativePath) {
        self.id = id
        self.audio = audio
        self.license = license
        self.provenance = provenance
    }
}
