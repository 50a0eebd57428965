// stillroomctl: maintenance over SSH. Shares only the control protocol with the daemon.
import ControlProtocol
import Glibc
import StillroomCore

/// Everything stillroomctl prints goes through here, made terminal-safe (TerminalText).
func write(_ text: String, to fd: Int32 = STDOUT_FILENO) {
    let safe = TerminalText.safe(text)
    let line = safe.hasSuffix("\n") ? safe : safe + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
}

func fail(_ message: String, _ status: ExitStatus) -> Never {
    write("stillroomctl: \(message)", to: STDERR_FILENO)
    exit(status.rawValue)
}

let invocation: Invocation
do {
    invocation = try Invocation.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error.message)\nTry 'stillroomctl --help'.", .usage)
}

guard let command = invocation.command else {
    write(CommandLineHelp.text)
    exit(invocation.help ? 0 : ExitStatus.usage.rawValue)
}
if invocation.help {
    guard let text = CommandLineHelp.commands[command] else { fail("unknown command \"\(command)\"\nTry 'stillroomctl --help'.", .usage) }
    write(text)
    exit(0)
}

let runner = CommandRunner(invocation: invocation)
exit(runner.run(command).rawValue)
