/// One key/value setting as stored (table `setting`). Typed settings are the core's business; the store
/// keeps strings.
public struct SettingRecord: Hashable, Sendable {
    public var key: String
    public var value: String
    /// When the value was last written.
    public var updatedAt: UnixMilliseconds

    public init(key: String, value: String, updatedAt: UnixMilliseconds) {
        self.key = key
        self.value = value
        self.updatedAt = updatedAt
    }
}
