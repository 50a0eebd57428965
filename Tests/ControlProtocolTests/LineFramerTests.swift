import ControlProtocol
import Testing

/// The control socket's line framer: lines come out whole however the bytes arrive, and no line can
/// hold more than the limit in memory.
@Suite struct LineFramerTests {
    func lines(_ items: [LineFramer.Item]) -> [String] {
        items.map { item in
            switch item {
            case .line(let bytes): return String(decoding: bytes, as: UTF8.self)
            case .tooLong: return "<too long>"
            }
        }
    }

    @Test func everySplitOfTheBytesGivesTheSameLines() {
        let stream = Array("{\"a\":1}\n\nsecond line\r\nthird\n".utf8)
        var once = LineFramer()
        let whole = lines(once.append(stream))
        #expect(whole == ["{\"a\":1}", "", "second line", "third"]) // CRLF from a hand-typed client tolerated
        for cut in 0...stream.count {
            var framer = LineFramer()
            let got = lines(framer.append(stream[..<cut])) + lines(framer.append(stream[cut...]))
            #expect(got == whole, "split at byte \(cut)")
        }
        var byteByByte = LineFramer()
        #expect(stream.flatMap { lines(byteByByte.append([$0])) } == whole)
    }

    @Test func anUnfinishedLineWaitsForItsNewline() {
        var framer = LineFramer()
        #expect(framer.append(Array("status".utf8)).isEmpty)
        #expect(framer.pendingCount == 6)
        #expect(lines(framer.append([0x0A])) == ["status"])
        #expect(framer.pendingCount == 0)
    }

    @Test func aLineOfExactlyTheLimitPassesAndOneByteMoreIsTooLongOnce() {
        var framer = LineFramer(limit: 8)
        #expect(lines(framer.append(Array("12345678\n".utf8))) == ["12345678"])
        // Nine bytes: reported once, the rest of that line dropped, the next line whole.
        #expect(lines(framer.append(Array("123456789abc".utf8))) == ["<too long>"])
        #expect(framer.pendingCount == 0)
        #expect(lines(framer.append(Array("def\nok\n".utf8))) == ["ok"])
    }

    @Test func anEndlessLineNeverHoldsMoreThanTheLimit() {
        var framer = LineFramer(limit: 1024)
        var reports = 0
        for _ in 0..<200 {
            reports += framer.append([UInt8](repeating: 0x41, count: 4096)).count
            #expect(framer.pendingCount <= 1024)
        }
        #expect(reports == 1) // one error for the whole oversized line, not one per chunk
        #expect(lines(framer.append(Array("\n{\"v\":1}\n".utf8))) == ["{\"v\":1}"])
    }

    @Test func theDefaultLimitIsTheProtocols() {
        #expect(LineFramer().limit == ControlProtocol.maximumLineBytes)
    }
}
