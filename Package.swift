// swift-tools-version:6.0
// Stillroom: firmware of a bedside meditation box. See docs/architecture.md for the module map.
import PackageDescription

/// A C library from Debian, found through pkg-config. Only the adapter named for it imports it.
func debianLibrary(_ name: String, pkgConfig: String, package: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([package])])
}

let package = Package(
    name: "Stillroom",
    products: [
        .executable(name: "stillroomd", targets: ["stillroomd"]),
        .executable(name: "stillroomctl", targets: ["stillroomctl"]),
        .executable(name: "stillroom-wifi-relay", targets: ["stillroom-wifi-relay"]),
    ],
    targets: [
        // C libraries (system library targets, pkg-config).
        // cairo and pango: their headers here, their functions CDrawing's (loaded when the screen is first drawn).
        debianLibrary("CCairo", pkgConfig: "cairo", package: "libcairo2-dev"),
        debianLibrary("CPango", pkgConfig: "pangocairo", package: "libpango1.0-dev"),
        debianLibrary("CALSA", pkgConfig: "alsa", package: "libasound2-dev"),
        debianLibrary("CGPIOD", pkgConfig: "libgpiod", package: "libgpiod-dev"),
        debianLibrary("CMPG123", pkgConfig: "libmpg123", package: "libmpg123-dev"),
        debianLibrary("CSQLite", pkgConfig: "sqlite3", package: "libsqlite3-dev"),
        debianLibrary("CDRM", pkgConfig: "libdrm", package: "libdrm-dev"),
        debianLibrary("CSampleRate", pkgConfig: "samplerate", package: "libsamplerate0-dev"),
        debianLibrary("CCrypto", pkgConfig: "libcrypto", package: "libssl-dev"),
        // Libraries loaded on first use, not at exec (dlopen, with the ELF .note.dlopen that names them):
        // downloads' libcurl and speech's libespeak-ng serve neither PLAY nor the first frame. Their
        // headers come from the -dev packages (scripts/setup); the daemon does not link them.
        .target(name: "CLazyLibrary"),
        .target(name: "CCurl", dependencies: ["CLazyLibrary"]),
        .target(name: "CEspeak", dependencies: ["CLazyLibrary"]),
        // The drawing stack (cairo, pango) serves no PLAY either: loaded when the screen is first drawn,
        // after READY=1, under the functions' own names (CDrawing.h says how).
        .target(name: "CDrawing", dependencies: ["CLazyLibrary", "CCairo", "CPango"]),
        // libcrypto, for the downloads' digests: loaded with the first one, the same way (CDigest.h).
        .target(name: "CDigest", dependencies: ["CLazyLibrary", "CCrypto"]),
        // Linux macros Swift cannot import, as inline functions.
        .target(name: "CLinuxShims"),
        // evdev ioctls and the crash-safe terminal restore, for the input adapters.
        .target(name: "CInputShims"),

        // The one layer over the kernel's calls: an owning file descriptor, the one errno error (the only
        // place an errno becomes text), the EINTR policy, and the file steps everything repeats. Every
        // adapter, the daemon and the CLI use it; it imports Glibc and CLinuxShims only.
        .target(name: "SystemCalls", dependencies: ["CLinuxShims"]),

        // Pure core: no C modules, no I/O, no clock reads.
        // The monotonic instant alone: the event loop reads it, the core computes with it, and the loop
        // need not import the whole core for one type.
        .target(name: "MonotonicTime"),
        .target(name: "StillroomCore", dependencies: ["MonotonicTime"]),

        // The daemon <-> CLI protocol: JSON lines, versioned. Pure.
        .target(name: "ControlProtocol", dependencies: ["StillroomCore"]),

        // The control socket's server side (Unix stream socket, SO_PEERCRED) in the loop.
        .target(name: "ControlSocket", dependencies: ["ControlProtocol", "EventLoop", "CLinuxShims", "SystemCalls"]),

        // Device protocols shared by adapters and fakes.
        .target(name: "Devices", dependencies: ["StillroomCore"]),

        // Adapters: one C library (or the kernel's syscalls) each.
        .target(name: "EventLoop", dependencies: ["CLinuxShims", "MonotonicTime", "SystemCalls"]),
        .target(name: "SQLiteStore", dependencies: ["CSQLite", "StillroomCore", "SystemCalls"]),
        .target(name: "MPG123Decoder", dependencies: ["CMPG123", "SystemCalls"]),
        .target(name: "ALSAAudio", dependencies: ["CALSA", "Devices", "EventLoop", "SystemCalls"]),
        .target(name: "EspeakSpeech", dependencies: ["CEspeak"]),
        .target(name: "Resampling", dependencies: ["CSampleRate"]),
        // One small GPIO API over libgpiod v1 (Debian 12) or v2 (Debian 13, the image), chosen by the header.
        .target(name: "CGPIOShim", dependencies: ["CGPIOD"]),
        .target(name: "GPIODInput", dependencies: ["CGPIOShim", "Devices", "EventLoop", "StillroomCore", "SystemCalls"]),
        .target(name: "EvdevInput", dependencies: ["CInputShims", "Devices", "EventLoop", "StillroomCore", "SystemCalls"]),
        .target(name: "TerminalInput", dependencies: ["CInputShims", "Devices", "EventLoop", "StillroomCore", "SystemCalls"]),
        // SHA-256 from libcrypto (OpenSSL's EVP), for verifying downloads; libcrypto loaded on first use.
        .target(name: "CryptoHash", dependencies: ["CCrypto", "CDigest", "StillroomCore"]),
        // Downloads: libcurl's multi socket API on the loop, the .part writer, atomic install, the manager.
        .target(name: "CurlDownloader", dependencies: ["CCurl", "CryptoHash", "EventLoop", "StillroomCore", "SystemCalls"]),
        // The network as the box sees it: wpa_supplicant's control sockets (events in the loop, requests
        // for the CLI), interfaces from sysfs and getifaddrs, host lookups for the CLI.
        .target(name: "NetworkProbe", dependencies: ["EventLoop", "MonotonicTime", "StillroomCore", "SystemCalls"]),
        // The daemon's only way to wpa_supplicant: a few read-only commands, relayed (docs/security.md).
        .executableTarget(name: "stillroom-wifi-relay", dependencies: ["EventLoop", "NetworkProbe"]),

        // The desktop simulator's devices, real backends of the product: a speaker paced by the loop's clock,
        // a display that writes PNGs, the terminal's preview of them.
        .target(name: "SimulatorDevices", dependencies: ["StillroomCore", "Devices", "EventLoop", "SystemCalls"]),
        // Fakes for tests alone (never linked into stillroomd): the manual clock, the virtual loop, scripted input.
        .target(name: "DeviceFakes", dependencies: ["StillroomCore", "Devices", "EventLoop", "MonotonicTime", "SystemCalls"]),
        // A content host on loopback with faults scripted per path: the downloader's tests and lifesim's world.
        .target(name: "FakeContentHost", dependencies: ["CryptoHash", "EventLoop", "StillroomCore", "SystemCalls"]),

        // The daemon: wires the core to the adapters and runs the loop.
        .target(name: "StillroomDaemon", dependencies: [
            "StillroomCore", "ControlProtocol", "ControlSocket", "Devices", "EventLoop", "SQLiteStore", "EspeakSpeech", "Resampling", "MPG123Decoder", "ALSAAudio", "SimulatorDevices",
            "GPIODInput", "EvdevInput", "TerminalInput", "CurlDownloader", "DisplayPipeline", "CairoPainter", "CLinuxShims", "NetworkProbe", "SystemCalls",
        ]),
        .executableTarget(name: "stillroomd", dependencies: ["StillroomDaemon"]),
        // The maintenance CLI: shares only the control protocol with the daemon; reads the database
        // directly (read-only) when the daemon is down.
        .executableTarget(name: "stillroomctl", dependencies: ["ControlProtocol", "StillroomCore", "SQLiteStore", "CLinuxShims", "NetworkProbe", "SystemCalls"]),

        // Fuzzers: built normally they replay their corpus (regression tests, run by scripts/test);
        // built by scripts/fuzz with -sanitize=fuzzer -DFUZZING they fuzz.
        .target(name: "CFuzzerDriver", path: "Sources/Fuzzers/Driver"),
        .target(name: "FuzzReplay", dependencies: ["CFuzzerDriver", "SystemCalls"], path: "Sources/Fuzzers/Replay"),
        .executableTarget(name: "fuzz-control-protocol", dependencies: ["ControlProtocol", "FuzzReplay"], path: "Sources/Fuzzers/ControlProtocol"),
        .executableTarget(name: "fuzz-catalog", dependencies: ["StillroomCore", "FuzzReplay"], path: "Sources/Fuzzers/Catalog"),
        .executableTarget(name: "fuzz-webvtt", dependencies: ["StillroomCore", "FuzzReplay"], path: "Sources/Fuzzers/WebVTT"),
        .executableTarget(name: "fuzz-manifest", dependencies: ["StillroomCore", "FuzzReplay"], path: "Sources/Fuzzers/Manifest"),
        .executableTarget(name: "fuzz-board", dependencies: ["StillroomCore", "FuzzReplay"], path: "Sources/Fuzzers/Board"),
        // The daemon's command layer: real command handling on simulated devices, not only the parser.
        .executableTarget(name: "fuzz-commands", dependencies: ["StillroomDaemon", "DisplayPipeline", "ControlProtocol", "StillroomCore", "SystemCalls", "FuzzReplay"],
                          path: "Sources/Fuzzers/Commands"),

        // History benchmark (bench/history): swift build -c release --product history-bench.
        // Boxes living whole lives on virtual time, a person and a hostile world against an oracle (docs/reliability.md).
        .target(name: "CHeapUsage"),
        .executableTarget(name: "lifesim", dependencies: ["StillroomDaemon", "DeviceFakes", "SimulatorDevices", "Devices", "CCrashVFS", "CSQLite", "FakeContentHost", "ControlProtocol", "CryptoHash", "StillroomCore", "SystemCalls", "CHeapUsage"],
                          path: "Sources/LifeSim"),
        .executableTarget(name: "history-bench", dependencies: ["StillroomCore"], path: "bench/history"),
        // Library benchmark (bench/LibraryBench): swift build -c release --product library-bench.
        .executableTarget(name: "library-bench", dependencies: ["CryptoHash", "StillroomCore"], path: "bench/LibraryBench"),
        // Checkpoint commit benchmark (bench/CheckpointBench): swift build -c release --product checkpoint-bench.
        .executableTarget(name: "checkpoint-bench", dependencies: ["SQLiteStore", "StillroomCore"], path: "bench/CheckpointBench"),

        // The display stack (issue 7): the cairo/pango painter and the DRM/KMS display (adapters), and
        // the pipeline that paces scenes through them.
        .target(name: "CairoPainter", dependencies: ["CCairo", "CPango", "CDrawing", "StillroomCore", "Devices"]),
        .target(name: "DRMDisplay", dependencies: ["CDRM", "Devices", "EventLoop", "StillroomCore", "SystemCalls"]),
        .target(name: "DisplayPipeline", dependencies: [
            "StillroomCore", "Devices", "EventLoop", "CairoPainter", "DRMDisplay", "SimulatorDevices", "SystemCalls",
        ]),
        // Display benchmarks and sample screens (bench/DisplayBench): swift build -c release --product display-bench.
        .executableTarget(name: "display-bench", dependencies: [
            "DisplayPipeline", "CairoPainter", "SimulatorDevices", "Devices", "EventLoop", "MPG123Decoder", "StillroomCore",
        ], path: "bench/DisplayBench"),

        // Tests.
        .target(name: "TestSupport", dependencies: ["SystemCalls"], path: "Tests/TestSupport"),
        // The test helpers' own tests (the skip rule: a failure under CI, a counted skip elsewhere).
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        // The fuzzers' replayer: a missing corpus path or nothing replayed is a failure.
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzReplay", "TestSupport"]),
        // A test-only SQLite VFS that loses unsynced writes at a chosen crash point (power cut below the
        // process); used by SQLiteStoreTests, never linked into a product.
        .target(name: "CCrashVFS", dependencies: ["CSQLite"], path: "Tests/CCrashVFS"),
        .testTarget(name: "StillroomCoreTests", dependencies: ["StillroomCore", "DeviceFakes", "TestSupport"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", "TestSupport"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "DeviceFakes", "TestSupport"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "CSQLite", "CCrashVFS", "SystemCalls", "TestSupport"]),
        .testTarget(name: "MPG123DecoderTests", dependencies: ["MPG123Decoder", "TestSupport"]),
        .testTarget(name: "SpeechTests", dependencies: ["EspeakSpeech", "Resampling", "TestSupport"]),
        .testTarget(name: "ALSAAudioTests", dependencies: ["ALSAAudio", "Devices", "EventLoop", "MPG123Decoder", "TestSupport"]),
        .testTarget(name: "CLibraryLinkTests", dependencies: ["CGPIOD", "CDRM", "CALSA", "ALSAAudio"]),
        .testTarget(name: "InputBackendTests", dependencies: [
            "GPIODInput", "EvdevInput", "TerminalInput", "CurlDownloader", "DisplayPipeline", "CairoPainter", "DeviceFakes", "Devices", "EventLoop", "StillroomCore", "TestSupport",
        ]),
        // The daemon in the test process on virtual time (DrivenDaemon), for the daemon's and the acceptance tests.
        .target(name: "DrivenDaemonSupport", dependencies: [
            "StillroomDaemon", "ControlProtocol", "ControlSocket", "DeviceFakes", "EventLoop", "StillroomCore", "TestSupport",
        ], path: "Tests/DrivenDaemonSupport"),
        .testTarget(name: "DaemonTests", dependencies: [
            "StillroomDaemon", "ControlProtocol", "CryptoHash", "DeviceFakes", "DrivenDaemonSupport", "EventLoop", "SQLiteStore", "CairoPainter",
            "NetworkProbe", "TestSupport",
        ]),
        .testTarget(name: "AcceptanceTests", dependencies: ["DrivenDaemonSupport", "StillroomCore", "MPG123Decoder", "TestSupport"]),
        .testTarget(name: "ContentTests", dependencies: ["CryptoHash", "StillroomCore", "MPG123Decoder", "TestSupport"]),
        .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol", "StillroomCore"]),
        .testTarget(name: "CurlDownloaderTests", dependencies: [
            "CurlDownloader", "EventLoop", "FakeContentHost", "StillroomCore", "SQLiteStore", "SystemCalls", "TestSupport",
        ]),
        .testTarget(name: "PlaybackTests", dependencies: [
            "StillroomDaemon", "ALSAAudio", "DeviceFakes", "SimulatorDevices", "Devices", "EventLoop", "MPG123Decoder", "StillroomCore", "TestSupport",
        ]),
        .testTarget(name: "DisplayTests", dependencies: [
            "DisplayPipeline", "CairoPainter", "DRMDisplay", "DeviceFakes", "SimulatorDevices", "Devices", "EventLoop", "StillroomCore", "TestSupport",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
