import ControlProtocol
import DisplayPipeline
import Glibc
import StillroomCore
import StillroomDaemon
import SystemCalls

/// The daemon's command layer under fuzzing: one real daemon in this process, on simulated devices (a
/// paced speaker, an in-memory screen, no input) over the bundled content, with its data on a tmpfs when
/// there is one. Every request goes through the handler the control socket calls; the loop then runs what
/// the answer set in motion. The daemon lives across inputs, so later inputs meet the states earlier ones
/// left (playing, paused, timer running, reminder set, history deleted).
///
/// A client must never stop the box: no trap, no hang, every answer a well-formed response line, and the
/// status afterwards still describes a place inside the recording.
final class CommandFuzzer {
    nonisolated(unsafe) static let shared = CommandFuzzer()

    private let daemon: Daemon
    private let scratch: String

    private init() {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        do throws(SystemError) {
            scratch = try Files.makeTemporaryFolder(prefix: base + "/stillroom-fuzz-commands.")
        } catch {
            fatalError("fuzz-commands: cannot make a scratch folder in \(base): \(error)")
        }
        // libFuzzer and --generate end with exit(): the scratch folder goes then (each run left one behind).
        Self.scratchAtExit = scratch
        atexit { CommandFuzzer.removeScratch() }
        let environment = ProcessInfoLite.environment
        var options = DaemonOptions()
        options.dataDirectory = scratch + "/data"
        options.contentDirectory = environment["STILLROOM_FUZZ_CONTENT"] ?? "Content"
        options.socketPath = scratch + "/control.sock"
        options.audioDevice = "paced:16"
        options.display = .memory(size: PixelSize(width: 320, height: 240))
        options.input = .none
        options.preview = false
        // A download source that refuses connections: the download commands meet a real manager.
        options.manifestURLs = ["http://127.0.0.1:9/manifest.json"]
        // An update folder, with this fuzzer as the agent that refuses every bundle (`answerAsTheAgent`).
        options.updateDirectory = scratch + "/update"
        options.updateRequestPath = scratch + "/update-request"
        mkdir(options.updateDirectory, 0o755)
        let quiet = open("/dev/null", O_WRONLY | O_CLOEXEC)
        do {
            daemon = try Daemon(options: options, environment: [:], logger: Logger(fd: quiet, threshold: .error))
        } catch {
            fatalError("fuzz-commands: the daemon did not start: \(error) (run from the repository, or set STILLROOM_FUZZ_CONTENT)")
        }
    }

    nonisolated(unsafe) private static var scratchAtExit: String?

    private static func removeScratch() {
        if let scratch = scratchAtExit { removeTree(scratch) }
    }

    /// Removes `path` and, for a folder, everything in it first; a link goes as itself, never followed.
    private static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        for name in (try? Files.listDirectory(path)) ?? [] { removeTree(path + "/" + name) }
        rmdir(path)
    }

    func check(_ input: [UInt8]) {
        for var request in RequestProgram.requests(from: input) {
            confine(&request)
            let answer = daemon.answer(request)
            answerAsTheAgent()
            let line = ControlCodec.encode(ControlResponse(id: request.id, outcome: answer.map(\.json)))
            precondition(line.last == UInt8(ascii: "\n") && !line.dropLast().contains(UInt8(ascii: "\n")), "an answer is one line")
            precondition(ControlCodec.decodeResponse(Array(line.dropLast())) != nil, "an answer must decode: \(request)")
            precondition(daemon.runReadyWork(turns: 2), "the loop failed after \(request)")
        }
        guard case .success(.status(let status)) = daemon.answer(ControlRequest(id: 0, command: "status")) else {
            preconditionFailure("status must always answer with the status")
        }
        precondition(status.position >= 0 && status.position <= status.duration + 0.001, "position \(status.position) outside 0…\(status.duration)")
    }

    /// An install the daemon asked for is refused at once, as RAUC refuses a bad bundle: the box is free
    /// again for the next request (an install left running would refuse PLAY for the rest of the run).
    private func answerAsTheAgent() {
        let folder = scratch + "/update"
        guard unlink(scratch + "/update-request") == 0 else { return }
        let report = "state=failed\nmessage=refused by the fuzzer's agent\n"
        let fd = open(folder + "/.progress", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        _ = report.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        rename(folder + "/.progress", folder + "/progress")
    }

    /// Nothing to confine now: a screenshot goes into the daemon's own folder (beside its socket, in the
    /// scratch folder) whatever name the request gives, and a name with a folder in it is refused.
    private func confine(_ request: inout ControlRequest) {}
}

/// The process environment, without Foundation's ProcessInfo (FoundationEssentials only).
enum ProcessInfoLite {
    static var environment: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") { result[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            pointer += 1
        }
        return result
    }
}
