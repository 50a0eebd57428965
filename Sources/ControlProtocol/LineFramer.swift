/// Splits a byte stream into lines, however the bytes arrive (one at a time, or many lines at once).
///
/// A line longer than the limit is reported once as `.tooLong` and its bytes are dropped up to the next
/// newline, so an oversized or endless line can neither grow memory nor wedge the connection.
public struct LineFramer: Sendable {
    public enum Item: Equatable, Sendable {
        case line([UInt8])
        case tooLong
    }

    public let limit: Int
    private var buffer: [UInt8] = []
    private var discarding = false

    public init(limit: Int = ControlProtocol.maximumLineBytes) { self.limit = limit }

    /// Bytes held for an unfinished line.
    public var pendingCount: Int { buffer.count }

    public mutating func append<Bytes: Collection>(_ bytes: Bytes) -> [Item] where Bytes.Element == UInt8 {
        var items: [Item] = []
        for byte in bytes {
            if byte == 0x0A {
                if discarding {
                    discarding = false
                } else {
                    var line = buffer
                    if line.last == 0x0D { line.removeLast() } // tolerate CRLF from hand-typed clients
                    items.append(.line(line))
                }
                buffer.removeAll(keepingCapacity: true)
                continue
            }
            if discarding { continue }
            buffer.append(byte)
            if buffer.count > limit {
                buffer.removeAll()
                discarding = true
                items.append(.tooLong)
            }
        }
        return items
    }
}
