// stillroom-wifi-relay: the daemon's only way to wpa_supplicant (docs/security.md, "Wi-Fi"). It runs as its
// own user, the one member of the group wpa_supplicant gives its control sockets to, and offers sockets of
// the same names to group stillroom that pass on only what following the Wi-Fi needs (RelayedCommands).
//
//   stillroom-wifi-relay [--upstream /run/wpa_supplicant] [--relay /run/stillroom-wifi]

import EventLoop
import Glibc
import NetworkProbe

var upstream = "/run/wpa_supplicant"
var relayDirectory = "/run/stillroom-wifi"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--upstream": upstream = arguments.popFirst() ?? ""
    case "--relay": relayDirectory = arguments.popFirst() ?? ""
    case "--help", "-h":
        print("Usage: stillroom-wifi-relay [--upstream DIR] [--relay DIR]\n"
              + "Relays PING, STATUS, SIGNAL_POLL, ATTACH and DETACH (and wpa_supplicant's answers and events) from\n"
              + "sockets in DIR [/run/stillroom-wifi] to wpa_supplicant's of the same names [/run/wpa_supplicant].")
        exit(0)
    default:
        FileHandleOutput.error("stillroom-wifi-relay: unknown argument \"\(argument)\" (try --help)")
        exit(2)
    }
}
guard !upstream.isEmpty, !relayDirectory.isEmpty else {
    FileHandleOutput.error("stillroom-wifi-relay: --upstream and --relay need a folder")
    exit(2)
}

do {
    let loop = try EventLoop()
    let relay = SupplicantRelay(loop: loop, upstream: upstream, relayDirectory: relayDirectory) { line in
        FileHandleOutput.error("stillroom-wifi-relay: " + line)
    }
    try loop.run()
    withExtendedLifetime(relay) {}
} catch {
    FileHandleOutput.error("stillroom-wifi-relay: \(error)")
    exit(1)
}

/// One line to stderr (the journal), unbuffered.
enum FileHandleOutput {
    static func error(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
