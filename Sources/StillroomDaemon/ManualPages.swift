import ControlProtocol
import StillroomCore

/// The box's three manual pages, each from the text that already says it: stillroomctl(1) from its
/// `--help` and each command's, stillroomd(8) from its `--help`, stillroom-board(5) from docs/board.md.
/// Kept in board/man (installed in the image) and checked against these by ManualPagesTests; regenerate
/// them with scripts/make-man.
public enum ManualPages {
    public static let seeAlso = ["stillroomctl(1)", "stillroom-board(5)", "stillroomd(8)"]

    public static func stillroomctl() -> ManualPage {
        var page = ManualPage(name: "stillroomctl", section: 1, summary: "look after a Stillroom box over SSH")
        page.addHelp(CommandLineHelp.text)
        page.addEntries("Commands in detail", CommandLineHelp.commands.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        page.addSeeAlso(seeAlso.filter { !$0.hasPrefix("stillroomctl(") })
        return page
    }

    public static func stillroomd() -> ManualPage {
        var page = ManualPage(name: "stillroomd", section: 8, summary: "the Stillroom appliance: plays sessions, draws the screen, reads the controls")
        page.addHelp(DaemonOptions.usage)
        page.addSeeAlso(seeAlso.filter { !$0.hasPrefix("stillroomd(") })
        return page
    }

    /// `markdown`: docs/board.md.
    public static func board(markdown: String) -> ManualPage {
        var page = ManualPage(name: "stillroom-board", section: 5,
                              summary: "the board file: which backend reads each control of a Stillroom box, and how it is wired")
        page.addMarkdown(markdown)
        page.addSeeAlso(seeAlso.filter { !$0.hasPrefix("stillroom-board(") })
        return page
    }

    /// Where each page lives in the repository (board/man) and in the image (/usr/share/man).
    public static let files = ["stillroomctl.1", "stillroomd.8", "stillroom-board.5"]
}
