// The pure rules of signed lists: the key file's shape, the signature's address, the version and the
// replay check (the downloader's tests show them at work over HTTP).

import StillroomCore
import Testing

@Suite struct SignedListRulesTests {
    /// `openssl pkey -pubout` of an Ed25519 key (the key bytes are 0x00…0x1f).
    static let pem = """
        -----BEGIN PUBLIC KEY-----
        MCowBQYDK2VwAyEAAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=
        -----END PUBLIC KEY-----

        """

    @Test func anEd25519PublicKeyFileIsReadAndWrittenBack() throws {
        let key = try ContentKey(pem: Self.pem, name: "maker.pub")
        #expect(key.rawBytes == Array(0..<32))
        #expect(key.pem == Self.pem)
        // Text around the block (a comment, CRLF line ends) does not matter.
        let framed = "made 2026-12-05\r\n" + Self.pem.replacing("\n", with: "\r\n")
        #expect(try ContentKey(pem: framed, name: "maker.pub").rawBytes == key.rawBytes)
    }

    @Test(arguments: [
        ("", "is not a PEM public key (no -----BEGIN PUBLIC KEY----- … -----END PUBLIC KEY-----)"),
        ("-----BEGIN PUBLIC KEY-----\n%%%\n-----END PUBLIC KEY-----\n", "has a public key that is not valid base64"),
        // An RSA-like DER (another algorithm) and an X25519 key (same size, another OID) are refused.
        ("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n-----END PUBLIC KEY-----\n",
         "is not an Ed25519 public key (44 bytes of DER)"),
        ("-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n", "is not an Ed25519 public key (2 bytes of DER)"),
    ])
    func otherFilesAreRefusedInWords(text: String, reason: String) {
        #expect(throws: InvalidValue(reason)) { try ContentKey(pem: text, name: "x.pub") }
    }

    @Test func theSignatureSitsBesideTheList() throws {
        let list = try RemoteURL(parsing: "https://content.example/stillroom/manifest.json?cache=1")
        #expect(SignedList.signatureURL(of: list)?.description == "https://content.example/stillroom/manifest.json.sig")
        #expect(SignedList.signatureURL(of: try RemoteURL(parsing: "https://content.example/lists/")) == nil)
    }

    @Test(arguments: [
        ("{\"version\": 7, \"schema\": 1}", "7"),
        ("{\"schema\": 1}", "it has no \"version\" (a signed list must say which it is)"),
        ("{\"version\": 0}", "its \"version\" is 0, not a whole number from 1"),
        ("{\"version\": 2.5}", "its \"version\" is 2.5, not a whole number from 1"),
        ("{\"version\": \"3\"}", "its \"version\" is \"3\", not a whole number from 1"),
        ("[1, 2]", "it is not a JSON object"),
        ("{\"version\": 1", "it is not a JSON object"),
    ])
    func theVersionIsAWholeNumberFromOne(text: String, expected: String) {
        switch SignedList.version(of: Array(text.utf8)) {
        case .success(let version): #expect(String(version) == expected)
        case .failure(let problem): #expect(problem.reason == expected)
        }
    }

    @Test func aListMayGoForwardOrStayTheSameButNotBack() {
        let kept = (version: 5, bytes: Array("five".utf8))
        #expect(SignedList.replayRefusal(version: 6, bytes: Array("six".utf8), kept: kept) == nil)
        #expect(SignedList.replayRefusal(version: 5, bytes: Array("five".utf8), kept: kept) == nil)
        #expect(SignedList.replayRefusal(version: 1, bytes: [], kept: nil) == nil)
        #expect(SignedList.replayRefusal(version: 4, bytes: Array("four".utf8), kept: kept)?.reason
                == "its version 4 is older than version 5, already taken (an old list sent again)")
        #expect(SignedList.replayRefusal(version: 5, bytes: Array("FIVE".utf8), kept: kept)?.reason
                == "it is version 5, already taken with other contents (the publisher must raise the version)")
    }
}
