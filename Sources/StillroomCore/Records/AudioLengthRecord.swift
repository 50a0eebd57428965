/// A scanned MP3's length (table `audio_length_cache`), valid only while the file's size and
/// modification time still match: a rescan is needed whenever either changes.
public struct AudioLengthRecord: Hashable, Sendable {
    /// The audio file's path.
    public var path: String
    /// File size in bytes when scanned.
    public var size: Int64
    /// File modification time (st_mtim) in nanoseconds since the epoch when scanned.
    public var modificationTimeNanoseconds: Int64
    /// Length in sample frames.
    public var frames: Int64
    public var sampleRate: Int

    public init(path: String, size: Int64, modificationTimeNanoseconds: Int64, frames: Int64, sampleRate: Int) {
        self.path = path
        self.size = size
        self.modificationTimeNanoseconds = modificationTimeNanoseconds
        self.frames = frames
        self.sampleRate = sampleRate
    }
}
