import ControlProtocol
import Glibc
import TestSupport
import Testing

/// Downloads' libcurl and speech's libespeak-ng are loaded when first used, not at exec (CLazyLibrary):
/// they serve neither PLAY nor the first frame, and they are 48 of the daemon's 106 libraries. Checked on
/// the real daemon through what the kernel says it has mapped (/proc/PID/maps).
@Suite struct LazyLibrariesTests {
    @Test func aStartedDaemonHasNeitherDownloadsNorSpeechLoadedUntilEachIsUsed() throws {
        let harness = DaemonHarness(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        let server = try RemoteSessionServer(in: harness.directory)
        harness.start(keys: true)
        harness.ctl("status") // a turn of the loop after READY, with no list to fetch
        let atStart = harness.mappedFiles()
        #expect(atStart.contains("libmpg123.so") && atStart.contains("libasound.so"), "what plays is loaded")
        #expect(!atStart.contains("libcurl.so"), "\(atStart)")
        #expect(!atStart.contains("libespeak-ng.so"), "\(atStart)")

        harness.ctl("settings", "set", "spoken-labels", "on")
        harness.typeKeys("\u{1B}[B") // the knob turned: its label is spoken
        _ = harness.waitForStatus { statusReport($0).live?.observed.spokenLabels == 1 }
        let afterSpeech = harness.mappedFiles()
        #expect(afterSpeech.contains("libespeak-ng.so"), "\(afterSpeech)")
        #expect(!afterSpeech.contains("libcurl.so"), "\(afterSpeech)")
        harness.stop()

        // With spoken labels kept on, the next start loads speech after READY, before any label is asked for.
        harness.start(keys: true)
        _ = harness.waitForStatus(attempts: 500) { _ in harness.mappedFiles().contains("libespeak-ng.so") == true }
        #expect(harness.mappedFiles().contains("libespeak-ng.so"))
        #expect(statusReport(harness.ctl("status", "--json").stdout).live?.observed.spokenLabels == 0, "no label was spoken for it")
        harness.stop()

        // With a list to fetch, libcurl is loaded for the fetch, and the fetch works through it.
        harness.extraArguments += ["--manifest", server.manifestURL]
        harness.start(keys: true)
        _ = harness.waitForStatus(attempts: 500) { _ in harness.ctl("downloads").stdout.contains("1 session listed") }
        #expect(harness.ctl("downloads").stdout.contains("Source: \(server.manifestURL) — 1 session listed"))
        #expect(harness.mappedFiles().contains("libcurl.so"))
        harness.stop()
    }

    /// image/build installs the packages of what the daemon opens on first use from the ELF note that names
    /// them (image/dlopen-sonames): the built daemon must carry it, naming exactly these: downloads, their
    /// digests (CDigest), speech, and the drawing stack (CDrawing).
    @Test func theDaemonNamesWhatItOpensOnFirstUseForTheImage() {
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "image/dlopen-sonames needs /usr/bin/python3") else { return }
        let named = Subprocess.run("/usr/bin/python3", [RepositoryPaths.root + "/image/dlopen-sonames", BuiltProducts.path("stillroomd")])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout == "libcairo.so.2\nlibcrypto.so.3\nlibcurl.so.4\nlibespeak-ng.so.1\nlibglib-2.0.so.0\nlibgobject-2.0.so.0\n"
                + "libpango-1.0.so.0\nlibpangocairo-1.0.so.0\n")
        let control = Subprocess.run("/usr/bin/python3", [RepositoryPaths.root + "/image/dlopen-sonames", BuiltProducts.path("stillroomctl")])
        #expect(control.status == 0 && control.stdout.isEmpty, "the CLI opens nothing on first use: \(control.stdout)")
    }

    /// A box whose libcurl and libespeak-ng are broken (each replaced by an empty file, in a mount namespace
    /// of the daemon's own) still starts and plays; the list's fetch and the spoken label each say why not.
    @Test func aBoxWithBrokenDownloadAndSpeechLibrariesPlaysAndSaysWhy() throws {
        guard Requirement.need(geteuid() == 0, "a mount namespace with bind mounts needs root") else { return }
        let libraries = ["libcurl.so.4", "libespeak-ng.so.1"].map { SharedLibraries.path(of: $0) ?? "" }
        try #require(libraries.allSatisfy { !$0.isEmpty }, "\(libraries)")
        let harness = DaemonHarness(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf",
                                                     "--manifest", "http://127.0.0.1:9/manifest.json"])
        harness.breakLibraries(libraries)
        harness.start(keys: true)
        #expect(harness.ctl("play", "sweep").status == 0)
        let playing = harness.waitForStatus { statusReport($0).state == .playing }
        #expect(statusReport(playing).session == "sweep", "\(playing)")

        let downloads = harness.waitForStatus(attempts: 500) { _ in harness.ctl("downloads").stdout.contains("libcurl could not be loaded") }
        _ = downloads
        let words = harness.ctl("downloads").stdout
        #expect(words.contains("libcurl could not be loaded ("), "\(words)")
        #expect(words.contains("downloads need Debian's libcurl4 package"), "\(words)")

        harness.ctl("settings", "set", "spoken-labels", "on")
        harness.typeKeys("\u{1B}[B")
        // Counted when asked for, whether or not it could be said.
        _ = harness.waitForStatus { statusReport($0).live?.observed.spokenLabels == 1 }
        #expect(harness.ctl("status").status == 0, "the daemon still answers")
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(log.contains("eSpeak NG could not be loaded ("), "\(log)")
        #expect(log.contains("speech needs Debian's libespeak-ng1 package"), "\(log)")
    }
}
