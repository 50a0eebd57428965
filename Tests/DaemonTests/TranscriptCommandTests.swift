import Glibc
import StillroomCore
import TestSupport
import Testing

/// `stillroomctl transcript` asks the daemon (which knows its own content folder and the downloads), falls
/// back to the files only when the daemon is down and says so, and never lets content write control
/// characters to the terminal.
@Suite struct TranscriptCommandTests {
    /// ESC (a colour, a screen clear), BEL, DEL and C1's CSI: what a hostile or broken transcript may hold.
    static let hostileCue = "Breathe \u{1B}[31min\u{1B}[2J\u{07} and\u{7F} out\u{9B}1m. \u{202E}tuo dna ni\u{202C}\u{2066}."
    static let hostileTranscript = "WEBVTT\n\n00:00.000 --> 00:01.500\n\(hostileCue)\n\n00:01.500 --> 00:03.000\nStill rising.\n"

    /// Only newline and tab among the control characters (C0, DEL, C1) and none of the bidi controls.
    static func expectNoControlCharacters(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bidi: [ClosedRange<UInt32>] = [0x061C...0x061C, 0x200E...0x200F, 0x2028...0x202E, 0x2066...0x2069]
        let found = text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
                || bidi.contains { $0.contains(scalar.value) }
        }
        #expect(found.isEmpty, "\(what) wrote \(found.map { String($0.value, radix: 16) }) to the terminal", sourceLocation: sourceLocation)
    }

    @Test func theDaemonAnswersFromItsOwnContentFolder() {
        let harness = DaemonHarness()
        harness.start()
        // This stillroomctl is pointed at another content folder: only the daemon knows where the content is.
        let transcript = Subprocess.run(BuiltProducts.path("stillroomctl"), ["--socket", harness.socketPath, "--data-dir",
                                        harness.dataDirectory, "--content-dir", harness.directory.file("elsewhere"), "transcript", "sweep"])
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout == "  0:00  A rising sound.\n  0:01  Still rising.\n")
        let json = harness.ctl("transcript", "sweep", "--json").stdout
        #expect(json.contains("\"cues\":[{\"end\":1.5,\"start\":0,\"text\":\"A rising sound.\"}"), "\(json)")
        #expect(harness.ctl("transcript", "nope").status == 4)
        harness.stop()
    }

    @Test func aDownloadedSessionsTranscriptIsShown() throws {
        let harness = DaemonHarness()
        let server = try RemoteSessionServer(in: harness.directory)
        harness.extraArguments = ["--manifest", server.manifestURL]
        harness.start()
        _ = harness.waitForStatus(attempts: 500) { _ in harness.ctl("sessions").stdout.contains("far-sweep") }
        let before = harness.ctl("transcript", "far-sweep")
        #expect(before.status == 1)
        #expect(before.stderr.contains("download the session first"), "\(before.stderr)")
        harness.download("far-sweep")
        let after = harness.ctl("transcript", "far-sweep")
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout == "  0:00  A far sweep.\n")
        harness.stop()
    }

    @Test func controlCharactersInCueTextAreShownEscaped() throws {
        let harness = DaemonHarness()
        Files.write(Self.hostileTranscript, to: harness.content + "/sessions/sweep/transcript.vtt")
        harness.start()
        let text = harness.ctl("transcript", "sweep")
        #expect(text.status == 0)
        Self.expectNoControlCharacters(text.stdout, "transcript")
        #expect(text.stdout.hasPrefix("  0:00  Breathe \\u{001B}[31min\\u{001B}[2J\\u{0007} and\\u{007F} out\\u{009B}1m. "
                                      + "\\u{202E}tuo dna ni\\u{202C}\\u{2066}.\n"), "\(text.stdout)")
        // JSON keeps the text exactly (escaped the JSON way), and is safe on a terminal too.
        let json = harness.ctl("transcript", "sweep", "--json")
        Self.expectNoControlCharacters(json.stdout, "transcript --json")
        let cues = try #require(try? JSONValue.parse(Array(json.stdout.utf8)))["cues"]?.arrayValue
        #expect(cues?.first?["text"]?.stringValue == Self.hostileCue)
        // Text the daemon echoes back in an error (here the id typed) is made safe the same way.
        let unknown = harness.ctl("show", "a\u{1B}[2Jb")
        Self.expectNoControlCharacters(unknown.stderr, "an error")
        #expect(unknown.stderr.contains("a\\u{001B}[2Jb"), "\(unknown.stderr)")
        harness.stop()

        // The daemon down: read from the content folder, said so, and just as safe.
        let offline = harness.ctl("transcript", "sweep")
        #expect(offline.status == 0)
        #expect(offline.stderr.contains("the daemon is not running; this is read from the content folder \(harness.content)"),
                "\(offline.stderr)")
        Self.expectNoControlCharacters(offline.stdout, "offline transcript")
        #expect(offline.stdout.hasPrefix("  0:00  Breathe \\u{001B}[31m"), "\(offline.stdout)")
    }

    /// A downloaded transcript may hold a megabyte in one cue: refused with a message that says why, rather
    /// than laid out on the loop (pango shaping a megabyte stalls it for seconds, and the audio with it).
    @Test func aMegabyteCueIsRefusedWithAClearMessage() {
        let harness = DaemonHarness()
        let huge = String(repeating: "breathe in and out ", count: 55_000) // 1 045 000 characters, one cue
        Files.write("WEBVTT\n\n00:00.000 --> 00:03.000\n\(huge)\n", to: harness.content + "/sessions/sweep/transcript.vtt")
        Files.write("WEBVTT\n\n00:00.000 --> 00:20.000\n\(String(repeating: "x", count: 1001))\n",
                    to: harness.content + "/sessions/long/transcript.vtt")
        harness.start()
        let sweep = harness.ctl("transcript", "sweep")
        #expect(sweep.status == 1)
        #expect(sweep.stderr.contains("transcript.vtt:1: the file is 1045033 bytes; a transcript may be at most 524288 (512 KiB)"),
                "\(sweep.stderr)")
        let long = harness.ctl("transcript", "long")
        #expect(long.status == 1)
        #expect(long.stderr.contains("transcript.vtt:4: the cue's text is 1001 characters long; a cue may have at most 1000"),
                "\(long.stderr)")
        harness.ctl("play", "sweep") // the screen's model reads it too: refused, said in the log
        let (_, log) = harness.stop()
        #expect(log.contains("<4>the transcript of sweep cannot be read:"), "\(log)")
    }
}
