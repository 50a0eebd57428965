import CryptoHash
import StillroomCore
import Testing

@Suite struct SHA256HasherTests {
    /// FIPS 180-4 examples and the NIST "one million a" vector.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func knownVectors(message: String, hex: String) {
        let hasher = SHA256Hasher()
        hasher.update(message)
        #expect(hasher.finalize().hex == hex)
        #expect(hasher.byteCount == Int64(message.utf8.count))
    }

    @Test func oneMillionLetterA() {
        let hasher = SHA256Hasher()
        let chunk = [UInt8](repeating: 0x61, count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(hasher.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding boundaries (55/56 bytes leave room or not for the length; 64 fills a
    /// block), checked against Python's hashlib.
    @Test(arguments: [
        (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
        (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
        (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
        (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
        (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
        (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
        (120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"),
    ])
    func paddingBoundaries(length: Int, hex: String) {
        let bytes = (0..<length).map { UInt8(($0 * 7 + 3) % 256) }
        #expect(SHA256Hasher.digest(bytes).hex == hex)
    }

    @Test func anySplitOfTheInputGivesTheSameDigest() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 11) }
        let whole = SHA256Hasher.digest(bytes)
        for split in [1, 7, 63, 64, 65, 128, 500, 999] {
            let hasher = SHA256Hasher()
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + split)
                hasher.update(Array(bytes[offset..<end]))
                offset = end
            }
            #expect(hasher.finalize() == whole, "chunks of \(split)")
        }
    }

    @Test func finalizeLeavesTheHasherUsable() {
        let hasher = SHA256Hasher()
        hasher.update("ab")
        _ = hasher.finalize()
        hasher.update("c")
        #expect(hasher.finalize().hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
