import StillroomCore
import Testing

@Suite struct SHA256DigestTests {
    @Test func bytesAreWrittenAsLowercaseHexInOrder() throws {
        let digest = SHA256Digest(bytes: (0..<32).map { UInt8($0 * 8) })
        #expect(digest.hex == "0008101820283038404850586068707880889098a0a8b0b8c0c8d0d8e0e8f0f8")
        #expect(digest == (try SHA256Digest(validating: digest.hex)))
    }
}
