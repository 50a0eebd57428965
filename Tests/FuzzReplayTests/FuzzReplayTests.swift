import FuzzReplay
import Glibc
import Testing
import TestSupport

/// The replayer that turns each fuzz corpus into a regression test (scripts/test): it must fail when it
/// was pointed at nothing, never print "replayed 0 inputs" and pass.
@Suite struct FuzzReplayTests {
    @Test func everyFileInTheFoldersIsReplayedAndHiddenOnesAreLeftOut() {
        let folder = TemporaryDirectory("stillroom-corpus")
        defer { folder.remove() }
        Files.write("one", to: folder.file("a"))
        Files.write("two", to: folder.file("b"))
        Files.write("", to: folder.file(".keep"))
        runShell("mkdir '\(folder.file("crashes"))'")
        Files.write("", to: folder.file("crashes/.keep"))
        var seen: [String] = []
        let status = FuzzReplay.run([folder.path]) { seen.append(String(decoding: $0, as: UTF8.self)) }
        #expect(status == 0)
        #expect(seen.sorted() == ["one", "two"])
        // An empty crashes folder beside a corpus is normal (no crash found yet).
        #expect(FuzzReplay.run([folder.file("a"), folder.file("crashes")]) { _ in } == 0)
    }

    @Test func aPathThatDoesNotExistFailsEvenBesideRealInputs() {
        let folder = TemporaryDirectory("stillroom-corpus")
        defer { folder.remove() }
        Files.write("one", to: folder.file("a"))
        var replayed = 0
        #expect(FuzzReplay.run([folder.file("a"), folder.file("no-such-corpus")]) { _ in replayed += 1 } == 1)
        #expect(replayed == 1)
    }

    @Test func nothingReplayedFails() {
        let folder = TemporaryDirectory("stillroom-corpus")
        defer { folder.remove() }
        Files.write("", to: folder.file(".keep"))
        #expect(FuzzReplay.run([folder.path]) { _ in } == 1) // only hidden files: no input
        #expect(FuzzReplay.run([]) { _ in } == 1)
    }
}
