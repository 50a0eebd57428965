import TestSupport
import Testing

/// The bash completion completes commands and their words (run in a real bash).
@Suite struct CompletionTests {
    func complete(_ words: [String]) -> String {
        let script = """
            source '\(RepositoryPaths.root)/board/bash-completion/stillroomctl'
            COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
            _stillroomctl; echo "${COMPREPLY[*]}"
            """
        return Subprocess.run("/bin/bash", ["-c", script], environment: ["PATH": "/usr/bin:/bin"]).stdout
    }

    @Test func commandsAndTheirWords() {
        #expect(complete(["stillroomctl", "hist"]) == "history\n")
        #expect(complete(["stillroomctl", "history", "ex"]) == "export\n")
        #expect(complete(["stillroomctl", "timer", "start", "--pattern", "4-"]).contains("4-7-8"))
        #expect(complete(["stillroomctl", "--json", "remi"]) == "reminder\n")
        #expect(complete(["stillroomctl", "upd"]) == "update\n")
        #expect(complete(["stillroomctl", "update", "in"]) == "install\n")
        #expect(complete(["stillroomctl", "netw"]) == "network\n")
        #expect(complete(["stillroomctl", "--wifi"]) == "--wifi-control\n")
        #expect(complete(["stillroomctl", "--wa"]) == "--wait\n")
    }

    /// A global option's value is not the command: after `--wait 60` and `--socket PATH` the command is
    /// still to come, and after it its own words are offered.
    @Test func aGlobalOptionsValueIsNotTheCommand() {
        #expect(complete(["stillroomctl", "--wait", "60", "hist"]) == "history\n")
        #expect(complete(["stillroomctl", "--socket", "/tmp/s", "--wait", "60", "timer", "st"]) == "start stop\n")
    }
}
