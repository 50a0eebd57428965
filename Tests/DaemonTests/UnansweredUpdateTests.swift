import ControlProtocol
import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// An update nobody answers: the folder is there but no agent takes the request (its path unit masked,
/// the agent broken). The daemon runs in this process on virtual time; the real CLI asks. Before, the box
/// stood at "0 % Preparing" and refused PLAY until someone restarted the daemon, and a restart forgot it
/// while the request stayed for a late agent to act on.
@Suite struct UnansweredUpdateTests {
    final class Box {
        let harness: DrivenDaemon
        let folder: String
        let bundle: String

        init() throws {
            let harness = DrivenDaemon()
            folder = harness.directory.file("update")
            mkdir(folder, 0o770)
            bundle = harness.directory.file("stillroom-next.raucb")
            Files.write("not really a bundle", to: bundle)
            harness.extraArguments = ["--update-dir", folder, "--update-request", folder + "/request"]
            self.harness = harness
            try harness.start()
        }

        var requestLies: Bool { Files.exists(folder + "/request") }
        func update() -> JSONValue { harness.result(.update(.status))?.json["update"] ?? .null }
        func state() -> String? { update()["state"]?.stringValue }
        func playRefused() -> Bool { harness.ctl("play", "sweep").status != 0 }
        func report(_ text: String) {
            Files.write(text, to: folder + "/.progress.new")
            rename(folder + "/.progress.new", folder + "/progress")
            _ = try? harness.advance(by: .milliseconds(1)) // the watcher's turn
        }
    }

    /// An install restarts the box into another version: root asks knowingly; any other peer the socket lets
    /// in (group stillroom) must confirm, and the daemon checks it, not only the CLI. Seen failing with the
    /// check removed (the unconfirmed request of uid 1000 was written for the agent).
    @Test func anInstallAskedByAPeerThatIsNotRootNeedsItsConfirmation() throws {
        let box = try Box()
        defer { box.harness.stop() }
        let ask = { (uid: UInt32, yes: Bool) in
            box.harness.request(raw: ControlRequest(id: 1, command: "update", arguments: [
                "action": "install", "source": .string(box.bundle), "yes": .bool(yes)]), uid: uid)
        }
        guard case .failure(let refusal) = ask(1000, false) else { Issue.record("an unconfirmed install was taken"); return }
        #expect(refusal.message.contains("run it as root, or confirm with stillroomctl update install"), "\(refusal.message)")
        #expect(!box.requestLies, "the agent was asked")
        #expect(box.harness.ctl("update", "install", box.bundle, "--yes", "--no-wait").status == 0)
        #expect(box.requestLies)
        unlink(box.folder + "/request")
        try box.harness.advance(by: SystemUpdate.answerLimit + .seconds(1))
        guard case .success = ask(1000, true) else { Issue.record("a confirmed install was refused"); return }
        #expect(box.requestLies)
    }

    @Test func aRequestNobodyTakesFailsAfterTwoMinutesAndPlayComesBack() throws {
        let box = try Box()
        defer { box.harness.stop() }
        #expect(box.harness.ctl("update", "install", box.bundle, "--no-wait").status == 0)
        #expect(box.requestLies)
        #expect(box.playRefused(), "PLAY while the update's screen stands")
        // Bounded both ways: still waiting just before the limit, failed just after.
        try box.harness.advance(by: SystemUpdate.answerLimit - .seconds(1))
        #expect(box.state() == "installing")
        #expect(box.playRefused())
        try box.harness.advance(by: .seconds(2))
        #expect(box.state() == "failed", "\(box.update())")
        #expect(box.update()["message"]?.stringValue?.contains("did not take the request") == true, "\(box.update())")
        #expect(!box.requestLies, "the request was left for a late agent")
        #expect(box.harness.status().notices.contains { $0.kind == .updateFailed })
        let play = box.harness.ctl("play", "sweep")
        #expect(play.status == 0, "\(play)")
        #expect(box.harness.ctl("update", "status").stdout.contains("did not take the request"))
        // Later, with an agent that answers: the next install is asked and followed as ever, and the old
        // limit does not cut it short.
        #expect(box.harness.ctl("stop").status == 0)
        #expect(box.harness.ctl("update", "install", box.bundle, "--no-wait").status == 0)
        #expect(box.requestLies)
        unlink(box.folder + "/request")
        box.report("state=installing\npercent=10\nstep=Copying image to rootfs.1\nsource=\(box.bundle)\n")
        try box.harness.advance(by: SystemUpdate.answerLimit + .seconds(60))
        #expect(box.state() == "installing", "\(box.update())")
    }

    @Test func anAgentThatStopsReportingMidInstallIsGivenUpOn() throws {
        let box = try Box()
        defer { box.harness.stop() }
        #expect(box.harness.ctl("update", "install", box.bundle, "--no-wait").status == 0)
        unlink(box.folder + "/request") // taken, as the agent does
        box.report("state=installing\npercent=40\nstep=Copying image to rootfs.1\nsource=\(box.bundle)\n")
        try box.harness.advance(by: SystemUpdate.installSilenceLimit - .seconds(60))
        box.report("state=installing\npercent=80\nstep=Copying image to rootfs.1\nsource=\(box.bundle)\n")
        // Each report gives it the whole limit again.
        try box.harness.advance(by: SystemUpdate.installSilenceLimit - .seconds(1))
        #expect(box.state() == "installing", "\(box.update())")
        try box.harness.advance(by: .seconds(2))
        #expect(box.state() == "failed", "\(box.update())")
        #expect(!box.playRefused())
    }

    @Test func aRestartThatNeverComesFreesTheBox() throws {
        let box = try Box()
        defer { box.harness.stop() }
        #expect(box.harness.ctl("update", "install", box.bundle, "--no-wait").status == 0)
        unlink(box.folder + "/request")
        box.report("state=installed\npercent=100\nsource=\(box.bundle)\nversion=2027.01\n")
        #expect(box.state() == "restarting")
        #expect(box.requestLies, "the restart was not asked for")
        try box.harness.advance(by: SystemUpdate.answerLimit + .seconds(1))
        #expect(box.state() == "failed", "\(box.update())")
        #expect(box.update()["message"]?.stringValue?.contains("not restarted into 2027.01") == true, "\(box.update())")
        #expect(!box.requestLies)
        #expect(!box.playRefused())
    }

    /// The daemon restarted with its request still lying there: taken back and told, not forgotten.
    @Test func aRequestLeftAcrossADaemonRestartIsTakenBackAndTold() throws {
        let box = try Box()
        defer { box.harness.stop() }
        #expect(box.harness.ctl("update", "install", box.bundle, "--no-wait").status == 0)
        box.harness.stop()
        #expect(box.requestLies)
        try box.harness.start()
        #expect(box.state() == "failed", "\(box.update())")
        #expect(box.update()["message"]?.stringValue?.contains("never taken up") == true, "\(box.update())")
        #expect(!box.requestLies)
        #expect(!box.playRefused())
    }
}
