import ControlProtocol

// The control protocol: the framer (any byte split), the request decoder and the typed command decoder
// must never crash, hang or hold more than their limit; every decoded request must survive encoding, and
// every command decoded from one must survive its own encoding (name and arguments) unchanged.
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
            checkCommand(request)
        }
        _ = ControlCodec.decodeResponse(line)
    }
}

private func checkCommand(_ request: ControlRequest) {
    switch ControlCommand.decode(request) {
    case .success(let command):
        precondition(command.name == request.command, "a command keeps its name")
        let line = ControlCodec.encode(ControlRequest(id: request.id, command))
        guard case .success(let sent) = ControlCodec.decodeRequest(Array(line.dropLast())) else {
            preconditionFailure("an encoded command must read back as a request: \(command)")
        }
        precondition(ControlCommand.decode(sent) == .success(command), "a command must survive its encoding: \(command)")
    case .failure(let error):
        precondition(error.code == .unknownCommand || error.code == .invalidArgument, "a refusal is unknown_command or invalid_argument")
        precondition(!error.message.isEmpty, "a refusal says why")
    }
}
