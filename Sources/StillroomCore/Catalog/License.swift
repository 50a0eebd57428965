/// The licence a recording is shared under, kept beside the content so the box can always say
/// where a recording came from and on what terms.
public struct License: Sendable, Hashable {
    /// "CC BY 4.0".
    public var name: String
    /// Who must be credited: "Stillroom project".
    public var attribution: String
    /// The licence text, when the catalog gives one.
    public var url: RemoteURL?

    public init(name: String, attribution: String, url: RemoteURL? = nil) {
        self.name = name
        self.attribution = attribution
        self.url = url
    }
}
