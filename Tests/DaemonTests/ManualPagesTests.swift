import Glibc
import StillroomCore
import StillroomDaemon
import ControlProtocol
import TestSupport
import Testing

/// The manual pages in board/man are what the help texts and docs/board.md make (one source each), they
/// render with man(1) without a warning, and they hold every command and option the help names.
/// `STILLROOM_UPDATE_MAN=1` rewrites them (scripts/make-man); under CI that is refused.
@Suite struct ManualPagesTests {
    static let folder = RepositoryPaths.root + "/board/man"

    static func pages() -> [(file: String, page: ManualPage)] {
        let board = String(decoding: Files.read(RepositoryPaths.root + "/docs/board.md"), as: UTF8.self)
        return [("stillroomctl.1", ManualPages.stillroomctl()), ("stillroomd.8", ManualPages.stillroomd()),
                ("stillroom-board.5", ManualPages.board(markdown: board))]
    }

    @Test func theKeptPagesAreWhatTheHelpAndTheDocsMake() {
        let updating = getenv("STILLROOM_UPDATE_MAN") != nil
        #expect(!(updating && Requirement.underCI), "the manual pages may not be rewritten in CI")
        for (file, page) in Self.pages() {
            let path = Self.folder + "/" + file
            if updating && !Requirement.underCI { Files.write(page.text, to: path) }
            #expect(String(decoding: Files.read(path), as: UTF8.self) == page.text,
                    "board/man/\(file) is not what its source makes: run scripts/make-man")
        }
    }

    @Test func theyRenderWithoutAWarning() throws {
        guard Requirement.need(Files.exists("/usr/bin/man"), "man-db is not installed") else { return }
        for (file, _) in Self.pages() {
            let path = Self.folder + "/" + file
            let rendered = Subprocess.run("/bin/sh", ["-c", "MANWIDTH=80 man --warnings -l '\(path)' 2>&1 >/dev/null; "
                                                       + "MANWIDTH=80 man -l '\(path)' | wc -l"],
                                          environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MANPAGER": "cat", "PAGER": "cat"])
            let lines = rendered.stdout.split(separator: "\n")
            #expect(rendered.status == 0 && lines.count == 1, "\(file): \(rendered.stdout)\(rendered.stderr)")
            #expect((Int(lines.last ?? "") ?? 0) > 40, "\(file) rendered to \(lines.last ?? "nothing")")
        }
    }

    @Test func everyCommandAndOptionOfTheHelpIsInItsPage() {
        let pages = Dictionary(uniqueKeysWithValues: Self.pages().map { ($0.file, $0.page.text) })
        let control = pages["stillroomctl.1"] ?? ""
        for command in CommandLineHelp.commands.keys {
            #expect(control.contains("\\fB\(ManualPage.escape(command))\\fR"), "stillroomctl.1 has no entry for \(command)")
        }
        for (file, help) in [("stillroomctl.1", CommandLineHelp.text), ("stillroomd.8", DaemonOptions.usage)] {
            let options = help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "[" || $0 == "]" })
                .filter { $0.hasPrefix("--") && $0.count > 2 }
            #expect(!options.isEmpty)
            for option in Set(options) {
                #expect(pages[file]?.contains(ManualPage.escape(String(option))) == true, "\(file) has no \(option)")
            }
        }
        for section in ["[board]", "[play]", "[back]", "[knob-turn]", "[knob-press]", "[jack]"] {
            #expect(pages["stillroom-board.5"]?.contains(ManualPage.escape(section)) == true, "stillroom-board.5 has no \(section)")
        }
    }
}
