import StillroomCore

// The board file parser: any bytes are either a board or a refusal listing problems, never a crash. A
// refusal always says something, each problem on a line the file has; a board never binds one GPIO line
// to two controls (the daemon would read a knob's pin as a button).
func check(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    do {
        let board = try BoardFileParser.parse(text)
        var lines: [GPIOLine] = []
        for control in [Control.play, .back, .knob] {
            if case .gpio(let line) = board.button(control).source { lines.append(line) }
        }
        if case .gpio(let a, let b) = board.knobTurn.source { lines += [a, b] }
        if case .gpio(let line) = board.jack.source { lines.append(line) }
        let pins = lines.map { "\($0.chips)/\($0.line)" } // the pin, whatever its wiring
        precondition(Set(pins).count == pins.count, "one GPIO line bound twice")
    } catch {
        precondition(!error.problems.isEmpty)
        let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
        for problem in error.problems {
            precondition(!problem.message.isEmpty)
            if let line = problem.line { precondition(line >= 1 && line <= max(lineCount, 1)) }
        }
    }
}
