// image/build refuses, before any work, an image whose keys would not be the maker's: a Pi image without
// the maker's bundle keys, a release image without the key for lists of sessions, and a "key" that is
// not an Ed25519 public key (docs/security.md, "Signed lists"; docs/updates.md, "Keys").

import TestSupport
import Testing

@Suite struct ImageBuildKeysTests {
    func build(_ arguments: [String]) -> (status: Int32, said: String) {
        let run = Subprocess.run(RepositoryPaths.root + "/image/build", arguments)
        return (run.status, run.stderr)
    }

    @Test func aPiImageNeedsTheMakersBundleKeys() {
        let (status, said) = build(["--arch", "arm64", "--target", "pi"])
        #expect(status == 2)
        #expect(said.contains("a Pi image needs the maker's keys"), "\(said)")
    }

    @Test func aReleaseImageNeedsTheMakersKeyForListsAndOnlyEd25519() {
        let directory = TemporaryDirectory("stillroom-image-keys")
        defer { directory.remove() }
        let release = ["--arch", "arm64", "--target", "pi", "--signing-key", "k.pem", "--signing-cert", "c.pem", "--keyring", "ca.pem"]
        let (status, said) = build(release)
        #expect(status == 2)
        #expect(said.contains("a release image needs the maker's key for lists of sessions (--content-key PUB.pem)"), "\(said)")

        let rsa = directory.file("rsa.pub")
        _ = runShell("openssl genpkey -algorithm rsa -pkeyopt rsa_keygen_bits:1024 2>/dev/null | openssl pkey -pubout -out '\(rsa)'")
        let (rsaStatus, rsaSaid) = build(release + ["--content-key", rsa])
        #expect(rsaStatus == 2)
        #expect(rsaSaid.contains("--content-key \(rsa) is not an Ed25519 public key in PEM"), "\(rsaSaid)")
    }
}
