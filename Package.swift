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
    ],
    targets: [
        // C libraries (system library targets, pkg-config).
        debianLibrary("CCairo", pkgConfig: "cairo", package: "libcairo2-dev"),
        debianLibrary("CPango", pkgConfig: "pangocairo", package: "libpango1.0-dev"),
        debianLibrary("CALSA", pkgConfig: "alsa", package: "libasound2-dev"),
        debianLibrary("CGPIOD", pkgConfig: "libgpiod", package: "libgpiod-dev"),
        debianLibrary("CMPG123", pkgConfig: "libmpg123", package: "libmpg123-dev"),
        debianLibrary("CSQLite", pkgConfig: "sqlite3", package: "libsqlite3-dev"),
        debianLibrary("CDRM", pkgConfig: "libdrm", package: "libdrm-dev"),
        // Linux macros Swift cannot import, as inline functions.
        .target(name: "CLinuxShims"),

        // Pure core: no C modules, no I/O, no clock reads.
        .target(name: "StillroomCore"),

        // Device protocols shared by adapters and fakes.
        .target(name: "Devices", dependencies: ["StillroomCore"]),

        // Adapters: one C library (or the kernel's syscalls) each.
        .target(name: "EventLoop", dependencies: ["CLinuxShims", "StillroomCore"]),
        .target(name: "SQLiteStore", dependencies: ["CSQLite", "StillroomCore"]),
        .target(name: "MPG123Decoder", dependencies: ["CMPG123"]),
        .target(name: "ALSAAudio", dependencies: ["CALSA", "Devices", "EventLoop"]),

        // Fakes beside the adapters; they power tests and the simulator alike.
        .target(name: "DeviceFakes", dependencies: ["StillroomCore", "Devices", "EventLoop"]),

        // The daemon: wires the core to the adapters and runs the loop.
        .target(name: "StillroomDaemon", dependencies: [
            "StillroomCore", "Devices", "EventLoop", "SQLiteStore", "MPG123Decoder", "ALSAAudio", "DeviceFakes",
        ]),
        .executableTarget(name: "stillroomd", dependencies: ["StillroomDaemon"]),

        // The display stack (issue 7): the cairo/pango painter and the DRM/KMS display (adapters), and
        // the pipeline that paces scenes through them.
        .target(name: "CairoPainter", dependencies: ["CCairo", "CPango", "StillroomCore", "Devices"]),
        .target(name: "DRMDisplay", dependencies: ["CDRM", "Devices", "EventLoop", "StillroomCore"]),
        .target(name: "DisplayPipeline", dependencies: [
            "StillroomCore", "Devices", "EventLoop", "CairoPainter", "DRMDisplay", "DeviceFakes",
        ]),
        // Display benchmarks and sample screens (bench/DisplayBench): swift build -c release --product display-bench.
        .executableTarget(name: "display-bench", dependencies: [
            "DisplayPipeline", "CairoPainter", "DeviceFakes", "Devices", "EventLoop", "MPG123Decoder", "StillroomCore",
        ], path: "bench/DisplayBench"),

        // Tests.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "StillroomCoreTests", dependencies: ["StillroomCore", "DeviceFakes", "TestSupport"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "TestSupport"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "CSQLite", "TestSupport"]),
        .testTarget(name: "MPG123DecoderTests", dependencies: ["MPG123Decoder", "TestSupport"]),
        .testTarget(name: "ALSAAudioTests", dependencies: ["ALSAAudio", "Devices", "EventLoop", "MPG123Decoder", "TestSupport"]),
        .testTarget(name: "CLibraryLinkTests", dependencies: ["CGPIOD", "CDRM", "CALSA", "ALSAAudio"]),
        .testTarget(name: "DaemonTests", dependencies: ["StillroomDaemon", "TestSupport"]),
        .testTarget(name: "PlaybackTests", dependencies: [
            "StillroomDaemon", "ALSAAudio", "DeviceFakes", "Devices", "EventLoop", "MPG123Decoder", "StillroomCore", "TestSupport",
        ]),
        .testTarget(name: "DisplayTests", dependencies: [
            "DisplayPipeline", "CairoPainter", "DRMDisplay", "DeviceFakes", "Devices", "EventLoop", "StillroomCore", "TestSupport",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
