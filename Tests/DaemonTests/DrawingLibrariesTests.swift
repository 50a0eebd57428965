import ControlProtocol
import CairoPainter
import Glibc
import SystemCalls
import TestSupport
import Testing

/// The drawing stack (cairo, pango and the 32 libraries they bring) is loaded when the screen is first
/// drawn, after READY=1 (CDrawing), not at exec; libcrypto with the first download's digest (CDigest).
/// SwiftPM still links what pkg-config names for the headers, so image/build takes those entries out of the
/// daemon (image/drop-unused-libraries); here the same tool runs on a copy of the built daemon, and the copy
/// is run as the box runs it.
@Suite struct DrawingLibrariesTests {
    static let drawing = ["libcairo.so.2", "libglib-2.0.so.0", "libgobject-2.0.so.0", "libharfbuzz.so.0",
                          "libpango-1.0.so.0", "libpangocairo-1.0.so.0"]
    /// What image/build drops from the daemon's entries: the drawing stack, and libcrypto (CDigest).
    static let openedAfterExec = (drawing + ["libcrypto.so.3"]).sorted()

    /// The folder the loader finds `soname` in, or nil.
    static func libraryFolder(of soname: String) -> String? { SharedLibraries.path(of: soname).map(Files.parent(of:)) }

    /// A copy of the built daemon with the drawing libraries' entries dropped, as image/build makes it.
    static func daemonAsTheImageHasIt(in harness: DaemonHarness) throws -> String {
        let copy = harness.directory.file("stillroomd")
        try #require(runShell("cp '\(BuiltProducts.path("stillroomd"))' '\(copy)'") == 0)
        let folder = try #require(libraryFolder(of: "libcairo.so.2"))
        let dropped = Subprocess.run("/usr/bin/python3", [RepositoryPaths.root + "/image/drop-unused-libraries", copy, folder])
        #expect(dropped.status == 0, "\(dropped.stderr)")
        #expect(dropped.stdout.split(separator: "\n").map(String.init).sorted() == openedAfterExec, "\(dropped.stdout)")
        #expect(dropped.stderr.isEmpty, "the daemon calls none of them itself: \(dropped.stderr)")
        let needed = Subprocess.run("/usr/bin/readelf", ["-d", copy]).stdout
        #expect(needed.contains("[libmpg123.so.0]") && needed.contains("[libasound.so.2]"), "what plays stays: \(needed)")
        for soname in openedAfterExec { #expect(!needed.contains("[\(soname)]"), "\(soname) is still needed at exec") }
        return copy
    }

    @Test func theDrawingStackIsLoadedForTheScreenAndNotBefore() throws {
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "image/drop-unused-libraries needs /usr/bin/python3") else { return }
        let harness = DaemonHarness()
        harness.binary = try Self.daemonAsTheImageHasIt(in: harness)

        // No screen: READY, status answered, PLAY playing, and not one drawing library ever mapped.
        harness.start()
        #expect(harness.ctl("play", "long").status == 0)
        _ = harness.waitForStatus { statusReport($0).state == .playing }
        let withoutScreen = harness.mappedFiles()
        #expect(withoutScreen.contains("libmpg123.so"), "what plays is loaded")
        for library in ["libcairo.so", "libpango-1.0.so", "libglib-2.0.so", "libharfbuzz.so", "libfontconfig.so", "libX11.so", "libcrypto.so"] {
            #expect(!withoutScreen.contains(library), "\(library) is mapped with no screen to draw")
        }
        harness.stop()

        // A screen: the libraries are loaded after READY=1, and the first frame is drawn through them.
        let screen = harness.directory.file("screen.png")
        harness.extraArguments = ["--display", "png:\(screen)"]
        harness.start()
        let daemon = try #require(harness.daemon)
        let started = daemon.readStderrLines(until: "screen: first frame shown")
        let withScreen = harness.mappedFiles()
        #expect(withScreen.contains("libcairo.so") && withScreen.contains("libpangocairo-1.0.so"), "\(withScreen)")
        let frame = try PNGImage.read(screen)
        #expect(frame.width == 800 && frame.height == 480)
        let colours = Set((0..<(frame.width * frame.height)).map { frame.pixels[$0] })
        #expect(colours.count > 50, "the first frame has \(colours.count) colours: text and shapes were not drawn")
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(!log.contains("Fatal error"))
        let ready = started.firstIndex { $0.contains("ready:") }, display = started.firstIndex { $0.contains("display: png:") }
        #expect(ready != nil && display != nil && ready! < display!, "the screen was set up before READY: \(started)")
    }

    /// A box whose drawing libraries are broken (libpangocairo replaced by an empty file, in a mount
    /// namespace of the daemon's own) starts, plays, and says why it has no screen.
    @Test func aBoxWithBrokenDrawingLibrariesPlaysAndSaysWhy() throws {
        guard Requirement.need(geteuid() == 0, "a mount namespace with bind mounts needs root") else { return }
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "image/drop-unused-libraries needs /usr/bin/python3") else { return }
        let harness = DaemonHarness()
        harness.binary = try Self.daemonAsTheImageHasIt(in: harness)
        harness.breakLibraries([try #require(SharedLibraries.path(of: "libpangocairo-1.0.so.0"))])
        harness.extraArguments = ["--display", "png:\(harness.directory.file("screen.png"))"]
        harness.start()
        let said = try #require(harness.daemon).readStderrLines(until: "without a screen")
        #expect(said.last?.contains("display: cannot draw: ") == true, "\(said)")
        #expect(said.last?.contains("libpangocairo-1.0.so.0") == true, "\(said)")
        #expect(harness.ctl("play", "long").status == 0)
        #expect(statusReport(harness.waitForStatus { statusReport($0).state == .playing }).live?.observed.screen == "none")
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(!log.contains("Fatal error") && access(harness.directory.file("screen.png"), F_OK) != 0)
    }

    /// The tool drops only what the binary binds nothing to: a program that names libcairo as opened later
    /// but calls cairo itself keeps it (and is told why), and still runs.
    @Test func aLibraryTheBinaryCallsItselfIsKept() throws {
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "image/drop-unused-libraries needs /usr/bin/python3") else { return }
        let directory = TemporaryDirectory()
        let source = directory.file("program.c"), program = directory.file("program")
        try #require(runShell("""
            cat > '\(source)' <<'EOF'
            #include <LazyLibrary.h>
            #include <cairo.h>
            STILLROOM_DLOPEN_NOTE(note, "[{\\"feature\\":\\"test\\",\\"soname\\":[\\"libcairo.so.2\\"]}]");
            int main(void) {
                cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 4, 4);
                return cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS ? 0 : 1;
            }
            EOF
            """) == 0)
        let flags = Subprocess.run("/usr/bin/pkg-config", ["--cflags", "--libs", "cairo"]).stdout
            .split(whereSeparator: \.isWhitespace).map(String.init)
        let compiled = Subprocess.run("/usr/bin/cc", ["-o", program, source, "-I", RepositoryPaths.root + "/Sources/CLazyLibrary/include"] + flags,
                                      environment: ["PATH": "/usr/bin:/bin"]) // cc finds ld on it
        try #require(compiled.status == 0, "\(compiled.stderr)")
        let folder = try #require(Self.libraryFolder(of: "libcairo.so.2"))
        let result = Subprocess.run("/usr/bin/python3", [RepositoryPaths.root + "/image/drop-unused-libraries", program, folder])
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("kept libcairo.so.2: program calls cairo_image_surface_create, cairo_surface_status"), "\(result.stderr)")
        #expect(Subprocess.run("/usr/bin/readelf", ["-d", program]).stdout.contains("[libcairo.so.2]"))
        #expect(Subprocess.run(program, []).status == 0)
    }
}
