import Glibc
import StillroomCore
import Testing
import TestSupport

/// `stillroomctl update`, the real CLI against the real daemon, with this test as the update agent: it
/// reads the daemon's requests from the update folder and writes the reports the agent would
/// (board/rauc/stillroom-update-agent). RAUC itself runs in the twin's update scenarios.
@Suite struct SystemUpdateDaemonTests {
    /// The daemon with an update folder, and the agent's side of it.
    final class Box {
        let harness: DaemonHarness
        let folder: String
        let bundle: String

        init(extraArguments: [String] = []) {
            harness = DaemonHarness()
            folder = harness.directory.file("update")
            mkdir(folder, 0o770)
            bundle = harness.directory.file("stillroom-next.raucb")
            Files.write("not really a bundle: the agent is this test", to: bundle)
            harness.extraArguments = ["--update-dir", folder, "--update-request", folder + "/request"] + extraArguments
            harness.start()
        }

        func json(_ text: String) -> JSONValue { (try? JSONValue.parse(Array(text.utf8))) ?? .null }
        var request: String { Files.exists(folder + "/request") ? String(decoding: Files.read(folder + "/request"), as: UTF8.self) : "" }

        /// Waits for the daemon's request and takes it, as the agent does. A bound against a hang, not a timing.
        func takeRequest() -> String {
            for _ in 0..<500 where !Files.exists(folder + "/request") { usleep(10_000) }
            let text = request
            unlink(folder + "/request")
            return text
        }

        /// A report replaced whole, as the agent writes it.
        func report(_ name: String, _ text: String) {
            Files.write(text, to: folder + "/." + name + ".new")
            rename(folder + "/." + name + ".new", folder + "/" + name)
        }

        /// `stillroomctl update install BUNDLE`, following the install, once the daemon has asked the agent.
        func installWithTheCLI() -> Subprocess {
            let cli = Subprocess(BuiltProducts.path("stillroomctl"), ["--socket", harness.socketPath, "update", "install", bundle])
            _ = takeRequest()
            return cli
        }

        func updateStatus() -> JSONValue { json(harness.ctl("--json", "update", "status").stdout) }

        /// Polls `update status` until `state` (each poll a real request).
        func waitForState(_ state: String) -> JSONValue {
            var status = JSONValue.null
            for _ in 0..<500 {
                status = updateStatus()
                if status["update"]?["state"]?.stringValue == state { return status }
                usleep(10_000)
            }
            return status
        }
    }

    @Test func anInstallIsAskedOfTheAgentFollowedAndRestartedInto() {
        let box = Box()
        #expect(box.updateStatus()["update"]?["state"]?.stringValue == "idle")
        let started = box.harness.ctl("update", "install", box.bundle, "--no-wait")
        #expect(started.status == 0, "\(started)")
        #expect(box.takeRequest() == "action=install\nsource=\(box.bundle)\n")
        // While it installs, PLAY waits: over the socket it is refused with the reason.
        let play = box.harness.ctl("play", "sweep")
        #expect(play.status != 0 && play.stderr.contains("an update is installing"), "\(play)")
        let timer = box.harness.ctl("timer", "start")
        #expect(timer.status != 0 && timer.stderr.contains("an update is installing"), "\(timer)")
        #expect(box.harness.ctl("timer").status == 0, "asking for the timer's state is not starting one")
        box.report("progress", "state=installing\npercent=40\nstep=Copying image to rootfs.1\nsource=\(box.bundle)\n")
        let installing = box.waitForState("installing")
        #expect(installing["update"]?["percent"]?.doubleValue == 40, "\(installing)")
        #expect(box.harness.ctl("update", "status").stdout.contains("installing, 40 % (Writing the new version)"))
        box.report("progress", "state=installed\npercent=100\nsource=\(box.bundle)\nversion=2027.01-next\n")
        // The daemon alone decides the restart: as soon as the slot is written (nothing can have started).
        #expect(box.takeRequest() == "action=restart\n")
        #expect(box.waitForState("restarting")["update"]?["version"]?.stringValue == "2027.01-next")
        #expect(box.harness.ctl("play", "sweep").status != 0)
        box.harness.stop()
    }

    /// The CLI without --no-wait follows the progress and ends when the box restarts into the update.
    @Test func theCLIFollowsTheInstallToTheRestart() {
        let box = Box()
        let cli = box.installWithTheCLI()
        box.report("progress", "state=installing\npercent=20\nstep=Checking bundle\n")
        _ = box.waitForState("installing")
        box.report("progress", "state=installed\npercent=100\nversion=2027.01-next\n")
        let output = cli.readStdout()
        let status = cli.wait()
        #expect(status == 0, "\(output) \(cli.readStderr())")
        #expect(output.contains("Installed 2027.01-next. The box restarts into it now"), "\(output)")
        #expect(box.takeRequest() == "action=restart\n")
        box.harness.stop()
    }

    @Test func aRefusedBundleIsToldOnScreenAndFreesTheBox() {
        let box = Box()
        let cli = box.installWithTheCLI()
        box.report("progress", "state=failed\nsource=\(box.bundle)\nmessage=signature verification failed\n")
        let said = cli.readStderr()
        #expect(cli.wait() == 1)
        #expect(said.contains("the update was not installed: signature verification failed; nothing changed"), "\(said)")
        let status = box.json(box.harness.ctl("status", "--json").stdout)
        let notices = status["notices"]?.arrayValue ?? []
        #expect(notices.contains { $0["kind"]?.stringValue == "update-failed" && ($0["message"]?.stringValue ?? "").contains("signature") }, "\(status)")
        // Nothing is switched and nothing waits: PLAY works, and the notice is dismissed like any other.
        #expect(box.harness.ctl("play", "sweep").status == 0)
        #expect(box.harness.ctl("dismiss", "--notice", "-3").status == 0)
        #expect(!box.harness.ctl("status").stdout.contains("signature"))
        #expect(box.harness.ctl("stop").status == 0)
        box.harness.stop()
    }

    @Test func refusedBeforeTheAgentIsAsked() {
        let box = Box()
        #expect(box.harness.ctl("play", "long").status == 0)
        let playing = box.harness.ctl("update", "install", box.bundle, "--no-wait")
        #expect(playing.status == 1 && playing.stderr.contains("the box is playing"), "\(playing)")
        #expect(box.harness.ctl("stop").status == 0)
        let cases: [(String, String)] = [
            ("http://127.0.0.1/x.raucb", "https only"),
            ("https://unknown.example/x.raucb", "not on the list of download hosts"),
            (box.harness.directory.file("missing.raucb"), "No such file"),
            (box.harness.directory.path, "is not a file"),
        ]
        for (source, said) in cases {
            let refused = box.harness.ctl("update", "install", source, "--no-wait")
            #expect(refused.status != 0 && refused.stderr.contains(said), "\(source): \(refused)")
        }
        // A name that is not a bundle's reaches the daemon's rule (the CLI checks only that the file is there).
        let notBundle = box.harness.directory.file("notes.txt")
        Files.write("x", to: notBundle)
        let wrong = box.harness.ctl("update", "install", notBundle, "--no-wait")
        #expect(wrong.status == 2 && wrong.stderr.contains("*.raucb"), "\(wrong)")
        #expect(!Files.exists(box.folder + "/request"), "a refused install still asked the agent: \(box.request)")
        #expect(box.updateStatus()["update"]?["state"]?.stringValue == "idle")
        box.harness.stop()
    }

    /// An install running when the daemon restarts (a crash, a watchdog) is shown again; one that finished
    /// meanwhile is restarted into; an old failure is not told twice.
    @Test func aDaemonRestartTakesUpTheAgentsWork() {
        let box = Box()
        box.report("progress", "state=installing\npercent=70\nstep=Copying image to rootfs.1\n")
        box.harness.stop(signal: SIGKILL)
        box.harness.start()
        #expect(box.updateStatus()["update"]?["percent"]?.doubleValue == 70)
        #expect(box.harness.ctl("play", "sweep").status != 0)
        box.harness.stop(signal: SIGKILL)
        box.report("progress", "state=installed\npercent=100\nversion=v2\n")
        box.harness.start()
        #expect(box.takeRequest() == "action=restart\n")
        box.harness.stop()
        box.report("progress", "state=failed\nmessage=old news\n")
        box.harness.start()
        #expect(!box.harness.ctl("status").stdout.contains("old news"))
        #expect(box.harness.ctl("play", "sweep").status == 0)
        box.harness.stop()
    }

    /// A version given up by the slot check is told once, as a stored notice; not again after a restart or
    /// after it was dismissed.
    @Test func aRollbackIsToldOnce() {
        let box = Box()
        let result = "update failed: 2027.02 (slot B) did not pass its check (stillroomd failed 5 times in a row); back to slot A"
        box.report("status", "booted=A\nbooted_version=2027.01\ncommitted=A\npending=\nother_version=2027.02\nbad=B\nlast_result=\(result)\n")
        func rollbackNotices() -> [JSONValue] {
            (box.json(box.harness.ctl("status", "--json").stdout)["notices"]?.arrayValue ?? []).filter { $0["kind"]?.stringValue == "update-rolled-back" }
        }
        var notices: [JSONValue] = []
        for _ in 0..<500 {
            notices = rollbackNotices()
            if !notices.isEmpty { break }
            usleep(10_000)
        }
        #expect(notices.count == 1 && (notices.first?["message"]?.stringValue ?? "").contains(result), "\(notices)")
        let status = box.harness.ctl("update", "status").stdout
        #expect(status.contains("Running:     2027.01 (slot A)") && status.contains("Other slot:  2027.02 (slot B, given up)")
                && status.contains("Last update: \(result)"), "\(status)")
        box.harness.stop()
        box.harness.start()
        #expect(rollbackNotices().count == 1)
        let id = Int(notices.first?["id"]?.doubleValue ?? 0)
        #expect(box.harness.ctl("dismiss", "--notice", String(id)).status == 0)
        box.harness.stop()
        box.harness.start()
        #expect(rollbackNotices().isEmpty)
        box.harness.stop()
    }

    /// A rollback on a card that has turned read-only: its notice cannot be kept, the daemon says so in its
    /// log and stays up, and `update status` still tells the result (read from the agent's folder in /run).
    @Test func aRollbackOnAReadOnlyCardIsStillTold() throws {
        guard Requirement.need(Ext4Card.mayMount, Ext4Card.whyNot) else { return }
        let harness = DaemonHarness()
        let folder = harness.directory.file("update")
        mkdir(folder, 0o770)
        harness.extraArguments = ["--update-dir", folder, "--update-request", folder + "/request"]
        var why = ""
        let card = try #require(Ext4Card(mountPoint: harness.dataDirectory, why: &why), "\(why)")
        harness.start()
        card.fail()
        let result = "update failed: 2027.02 (slot B) did not start; back to slot A"
        Files.write("booted=A\ncommitted=A\nbad=B\nlast_result=\(result)\n", to: folder + "/.status")
        rename(folder + "/.status", folder + "/status")
        var said = ""
        for _ in 0..<300 {
            said = harness.ctl("update", "status").stdout
            if said.contains(result) { break }
            usleep(10_000)
        }
        #expect(said.contains("Last update: \(result)"), "\(said)")
        #expect(harness.ctl("status").status == 0, "the daemon stopped answering")
        let log = harness.stop().log
        #expect(log.contains("the rollback's notice could not be saved"), "\(log.suffix(800))")
    }

    /// Garbage in the agent's files is left out, and an agent that cannot be asked is said so: the daemon
    /// stays up and the box plays.
    @Test func garbageAndAMissingFolderNeverStopTheBox() {
        let box = Box()
        box.report("progress", String(decoding: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131) }, as: UTF8.self))
        box.report("status", "booted=../../etc\nlast_result=" + String(repeating: "x", count: 100_000))
        #expect(box.updateStatus()["update"]?["state"]?.stringValue == "idle")
        #expect(box.updateStatus()["slots"] == nil)
        // The folder goes (a tmpfs unmounted under it): the request cannot be written; the install fails, told.
        _ = runShell("rm -rf '\(box.folder)'")
        let lost = box.harness.ctl("update", "install", box.bundle)
        #expect(lost.status == 1 && lost.stderr.contains("the update agent could not be asked"), "\(lost)")
        #expect(box.harness.ctl("play", "sweep").status == 0)
        #expect(box.harness.ctl("stop").status == 0)
        box.harness.stop()
    }

    /// Without the folder (the simulator, a desktop) updates say they are not available, from the daemon and
    /// with the daemon down.
    @Test func withoutTheFolderUpdatesAreNotAvailable() {
        let harness = DaemonHarness(extraArguments: ["--update-dir", "/nonexistent/stillroom-update"])
        harness.start()
        let install = harness.ctl("update", "install", harness.content + "/../x.raucb")
        #expect(install.status != 0)
        Files.write("x", to: harness.directory.file("x.raucb"))
        let refused = harness.ctl("update", "install", harness.directory.file("x.raucb"))
        #expect(refused.status == 1 && refused.stderr.contains("not available on this box"), "\(refused)")
        #expect(harness.ctl("update", "status").stdout.contains("System updates are not available here"))
        harness.stop()
        let offline = harness.ctl("update", "status", "--update-dir", "/nonexistent/stillroom-update")
        #expect(offline.status == 0 && offline.stdout.contains("not available here"), "\(offline)")
    }
}
