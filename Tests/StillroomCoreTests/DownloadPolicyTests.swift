import StillroomCore
import Testing

@Suite struct DownloadPolicyTests {
    @Test func backoffDoublesUpToTheCap() {
        let policy = RetryPolicy(initialDelay: .seconds(2), maximumDelay: .seconds(60), jitterFraction: 0.2)
        let delays = (1...8).map { policy.delay(forRetry: $0, randomUnit: 0.5) }
        #expect(delays == [.seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32), .seconds(60), .seconds(60), .seconds(60)])
    }

    @Test func jitterSpreadsTheDelayWithinItsFractionAndNeverPastTheCap() {
        let policy = RetryPolicy(initialDelay: .seconds(10), maximumDelay: .seconds(60), jitterFraction: 0.2)
        #expect(policy.delay(forRetry: 1, randomUnit: 0) == .seconds(8))
        #expect(policy.delay(forRetry: 1, randomUnit: 0.999_999) <= .seconds(12))
        #expect(policy.delay(forRetry: 1, randomUnit: 0.999_999) > .milliseconds(11_999))
        for unit in stride(from: 0.0, to: 1.0, by: 0.1) {
            #expect(policy.delay(forRetry: 10, randomUnit: unit) <= .seconds(60))
            #expect(policy.delay(forRetry: 10, randomUnit: unit) >= .seconds(48))
        }
        // Huge attempt numbers neither overflow nor exceed the cap.
        #expect(policy.delay(forRetry: 10_000, randomUnit: 0.5) == .seconds(60))
    }

    @Test(arguments: [
        (DownloadFailure.cannotConnect("refused"), true),
        (.connectionLost("reset"), true),
        (.stalled, true),
        (.timedOut("connect"), true),
        (.endedEarly(received: 1, expected: 2), true),
        (.httpStatus(500), true),
        (.httpStatus(503), true),
        (.httpStatus(429), true),
        (.httpStatus(404), false),
        (.httpStatus(403), false),
        (.httpStatus(301), false),
        (.oversize(bytes: 2, limit: 1), false),
        (.redirectRefused("x"), false),
        (.diskFull(SpaceShortage(neededBytes: 2, availableBytes: 1, reserveBytes: 0)), false),
        (.tls("certificate"), false),
    ])
    func transientAndPermanentFailures(failure: DownloadFailure, transient: Bool) {
        #expect(failure.isTransient == transient)
        #expect(!failure.reason.isEmpty && !failure.advice.isEmpty)
    }

    @Test func aFailureSurvivesTheRecordRoundTrip() {
        let failure = DownloadFailure.httpStatus(404)
        let restored = DownloadFailure(recordText: failure.recordText)
        #expect(restored.reason == failure.reason)
        #expect(restored.advice == failure.advice)
        #expect(restored.reason == "The server answered HTTP 404 Not Found.")
    }

    @Test func theAllowListIsExact() throws {
        let hosts = DownloadHostAllowList(["Content.Example", "127.0.0.1", "[::1]"])
        #expect(hosts.permits(try RemoteURL(parsing: "https://content.example/a")))
        #expect(hosts.permits(try RemoteURL(parsing: "https://CONTENT.example:8443/a")))
        #expect(hosts.permits(try RemoteURL(parsing: "http://127.0.0.1:8000/a")))
        #expect(hosts.permits(try RemoteURL(parsing: "http://[::1]:8000/a")))
        #expect(!hosts.permits(try RemoteURL(parsing: "https://cdn.content.example/a")))
        #expect(!hosts.permits(try RemoteURL(parsing: "https://content.example.evil/a")))
        #expect(!hosts.permits(try RemoteURL(parsing: "http://content.example/a")))
        #expect(!hosts.permits(try RemoteURL(parsing: "http://localhost:8000/a")))
        #expect(hosts.refusal(of: try RemoteURL(parsing: "http://content.example/a"))?.contains("plain http") == true)
    }

    @Test func contentRangeParsing() {
        #expect(ContentRange(parsing: "bytes 100-999/1000") == ContentRange(first: 100, last: 999, completeLength: 1000))
        #expect(ContentRange(parsing: "bytes 0-0/*") == ContentRange(first: 0, last: 0, completeLength: nil))
        #expect(ContentRange(parsing: "bytes 100-99/1000") == nil)
        #expect(ContentRange(parsing: "bytes 100-1000/1000") == nil)
        #expect(ContentRange(parsing: "bytes */1000") == nil)
        #expect(ContentRange(parsing: "items 1-2/3") == nil)
        #expect(ContentRange(parsing: "bytes -1-2/3") == nil)
    }

    @Test func responseHeadsFromRawLines() {
        let head = ResponseHead(status: 206, headerLines: [
            "Content-Length: 900\r\n", "content-range: bytes 100-999/1000", "LOCATION:  /x \r\n", "X-Other: y", "garbage",
        ])
        #expect(head.contentLength == 900)
        #expect(head.contentRange?.first == 100)
        #expect(head.location == "/x")
        #expect(ResponseHead(status: 200, headerLines: ["Content-Length: -5"]).contentLength == nil)
        #expect(ResponseHead.status(ofStatusLine: "HTTP/1.1 206 Partial Content\r\n") == 206)
        #expect(ResponseHead.status(ofStatusLine: "HTTP/2 404") == 404)
        #expect(ResponseHead.status(ofStatusLine: "Content-Type: x") == nil)
    }

    @Test func byteCountsAreShort() {
        #expect(ByteCountText.text(0) == "0 bytes")
        #expect(ByteCountText.text(1) == "1 byte")
        #expect(ByteCountText.text(999) == "999 bytes")
        #expect(ByteCountText.text(1000) == "1.0 kB")
        #expect(ByteCountText.text(4_200_000) == "4.2 MB")
        #expect(ByteCountText.text(999_999) == "1.0 MB")
        #expect(ByteCountText.text(32_000_000_000) == "32.0 GB")
    }
}
