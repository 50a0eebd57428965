import EventLoop
import Glibc
import Testing

/// A pipe whose ends close when the test is done with them.
final class Pipe {
    let readEnd: Int32
    let writeEnd: Int32

    /// A pipe whose read end takes the number `readEnd` (dup2: the file that had it is closed in the same
    /// step, so no other thread can take the number in between, as the kernel's lowest free one could be).
    init(readEndAt number: Int32) {
        let fresh = Pipe()
        precondition(dup2(fresh.readEnd, number) == number)
        close(fresh.readEnd)
        readEnd = number
        writeEnd = fresh.writeEnd
    }

    init() {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    func send(_ text: String = "x") {
        _ = text.utf8CString.withUnsafeBufferPointer { write(writeEnd, $0.baseAddress, $0.count - 1) }
    }

    func drain() -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(readEnd, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }

    func closeBoth() {
        close(readEnd)
        close(writeEnd)
    }
}

extension EventLoopSuite {
@Suite struct DescriptorTests {
    @Test func aReadableDescriptorRunsItsHandler() throws {
        let loop = try EventLoop()
        let pipe = Pipe()
        defer { pipe.closeBoth() }
        var received = ""
        let watch = try loop.watch(pipe.readEnd, for: .readable) { events in
            #expect(events.contains(.readable))
            received += pipe.drain()
        }
        pipe.send("hello")
        try loop.runOnce()
        #expect(received == "hello")
        #expect(try loop.runOnce(timeout: .zero) == 0) // drained: nothing more to do
        watch.cancel()
        #expect(!watch.isActive)
        pipe.send("ignored")
        #expect(try loop.runOnce(timeout: .zero) == 0)
    }

    @Test func writableInterestCanBeAddedAndRemoved() throws {
        let loop = try EventLoop()
        let pipe = Pipe()
        defer { pipe.closeBoth() }
        var writableCount = 0
        let watch = try loop.watch(pipe.writeEnd, for: []) { events in
            if events.contains(.writable) { writableCount += 1 }
        }
        #expect(try loop.runOnce(timeout: .zero) == 0)
        try watch.update(events: .writable)
        try loop.runOnce(timeout: .zero)
        #expect(writableCount == 1)
        try watch.update(events: [])
        #expect(try loop.runOnce(timeout: .zero) == 0)
        watch.cancel()
    }

    @Test func anEventForAClosedAndReusedDescriptorIsDropped() throws {
        let loop = try EventLoop()
        let first = Pipe()
        let second = Pipe()
        var calls: [String] = []
        var watches: [String: IOWatch] = [:]
        var replacement: (pipe: Pipe, watch: IOWatch)?
        // Whichever handler runs first closes the other pipe's read end and opens a new pipe under the same
        // number (as the kernel gives the lowest free number to the next descriptor; dup2 here, so a test
        // running beside this one cannot take the number in between). The collected event for the old
        // registration must not reach the new one (or the old handler).
        func handler(_ name: String, _ own: Pipe, _ other: Pipe, _ otherName: String) -> (IOEvents) -> Void {
            return { _ in
                calls.append(name)
                guard replacement == nil else { return }
                watches[otherName]!.cancel()
                let reused = Pipe(readEndAt: other.readEnd)
                let watch = try! loop.watch(reused.readEnd, for: .readable) { _ in calls.append("replacement") }
                replacement = (reused, watch)
                _ = own.drain()
            }
        }
        watches["first"] = try loop.watch(first.readEnd, for: .readable, handler: handler("first", first, second, "second"))
        watches["second"] = try loop.watch(second.readEnd, for: .readable, handler: handler("second", second, first, "first"))
        first.send()
        second.send()
        #expect(try loop.runOnce() == 1)
        #expect(calls.count == 1)
        #expect(!calls.contains("replacement"))
        // The replacement works normally afterwards.
        replacement!.pipe.send()
        try loop.runOnce()
        #expect(calls.last == "replacement")
    }

    @Test func wakeFromAnotherThreadRunsTheWakeHandlerOnTheLoop() throws {
        let loop = try EventLoop()
        var woken = 0
        loop.onWake { woken += 1 }
        let waker = loop.waker
        var thread = pthread_t()
        let box = Unmanaged.passRetained(WakerBox(waker)).toOpaque()
        pthread_create(&thread, nil, { raw in
            let box = Unmanaged<WakerBox>.fromOpaque(raw!).takeRetainedValue()
            box.waker.wake()
            box.waker.wake() // coalesces with the first
            return nil
        }, box)
        pthread_join(thread, nil)
        try loop.runOnce()
        #expect(woken == 1)
    }

    @Test func signalsArriveThroughTheLoop() throws {
        let loop = try EventLoop()
        var received: [Int32] = []
        try loop.handleSignals([SIGUSR1, SIGUSR2]) { received.append($0) }
        // Thread-directed: only this thread, which blocks them, can receive them (the signalfd reads them).
        pthread_kill(pthread_self(), SIGUSR2)
        try loop.runOnce()
        pthread_kill(pthread_self(), SIGUSR1)
        try loop.runOnce()
        #expect(received == [SIGUSR2, SIGUSR1])
    }
}
}

final class WakerBox {
    let waker: LoopWaker
    init(_ waker: LoopWaker) { self.waker = waker }
}
