import ALSAAudio
import Glibc
import MPG123Decoder

/// The daemon's entry point, kept out of `main.swift` so tests can reach it.
public enum DaemonMain {
    /// Exit status for a bad command line (as sysexits' EX_USAGE is too obscure, 2 like most tools).
    public static let usageStatus: Int32 = 2

    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let request: DaemonOptions.Request
        do {
            request = try DaemonOptions.parse(Array(arguments.dropFirst()))
        } catch {
            writeLine("stillroomd: \(error)\nTry 'stillroomd --help'.", to: STDERR_FILENO)
            return usageStatus
        }
        switch request {
        case .help:
            writeLine(DaemonOptions.usage, to: STDOUT_FILENO)
            return 0
        case .version:
            writeLine(versionReport, to: STDOUT_FILENO)
            return 0
        case .run(let options):
            let logger = Logger(threshold: options.logThreshold)
            do {
                let daemon = try Daemon(options: options, environment: environment, logger: logger)
                return daemon.run()
            } catch {
                logger.error("cannot start: \(error)")
                return 1
            }
        }
    }

    static var versionReport: String {
        """
        stillroomd \(StillroomVersion.string)
        alsa-lib \(ALSALibrary.version)
        libmpg123 \(MP3Decoder.libraryVersion)
        """
    }

    /// Direct writes, not stdio: stdout is block-buffered when it is not a terminal.
    private static func writeLine(_ text: String, to fd: Int32) {
        let line = text + "\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    }
}

/// The firmware's version.
public enum StillroomVersion {
    public static let string = "0.1.0"
}
