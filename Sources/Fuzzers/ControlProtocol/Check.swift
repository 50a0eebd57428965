import ControlProtocol

// The control protocol: the framer (any byte split) and the request decoder must never crash, hang or
// hold more than its limit, and every decoded request must survive encoding.
func check(_ bytes: [UInt8]) {
    var framer = LineFramer(limit: 4096)
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % max(1, bytes.count)
    var items = framer.append(bytes[..<split])
    items += framer.append(bytes[split...])
    precondition(framer.pendingCount <= 4096, "the framer must never hold more than its limit")
    for case .line(let line) in items {
        if case .success(let request) = ControlCodec.decodeRequest(line) {
            let again = ControlCodec.decodeRequest(Array(ControlCodec.encode(request).dropLast()))
            precondition((try? again.get()) == request, "a decoded request must survive encoding")
        }
        _ = ControlCodec.decodeResponse(line)
    }
}
