import ControlProtocol
import DeviceFakes
import SimulatorDevices
import FoundationEssentials
import Glibc
import StillroomCore
import StillroomDaemon
import SystemCalls

/// One box: the daemon `stillroomd` runs, in this process, on a loop whose clock the simulation moves
/// (a `ManualClock`: a year of the box's time passes in the time its work takes). Real files, real
/// SQLite, real mpg123 on the paced speaker, the terminal input on a pipe the person types into.
///
/// A kill -9 is what the card holds at that instant: the data folder is copied between two of the loop's
/// handlers (nothing is half-written then, as nothing is between two system calls of a killed process),
/// the running daemon is dropped, and the copy is what the next start finds.
final class SimulatedBox {
    let folder: String
    let content: String
    /// The repository: its development keys (the maker's, to the box) and its simulator board file.
    let repository: String
    let clock: ManualClock
    private(set) var virtual: VirtualLoop?
    private(set) var daemon: Daemon?
    /// The daemon's time zone (TZ), read at each start.
    var timeZone: String
    private var logFD: Int32 = -1
    private var keys: (read: Int32, write: Int32)?
    private var nextRequest = 1
    /// The log, read on from where the last read ended (a kill keeps the file: one log for the box's life).
    private var logReader: Int32 = -1
    /// The longest turn of the loops of the daemon's earlier lives, in real time.
    private var longestTurnBefore: Duration = .zero
    /// What the box said since the last `takeSpoken()`.
    private var spoken: [String] = []
    /// The content host of its world, when the box has download sources.
    let host: LifeHost?
    /// Root's update agent and boot selection, in the box's /run (`folder/run`).
    let updates: UpdateAgent
    /// The downloads' retry jitter: seeded, so a life replays exactly.
    private var jitter = SplitMix64(seed: 46)

    /// The card: a small tmpfs of its own, with the daemon's data folder on it (room for the downloads'
    /// 32 MB reserve and two small recordings, and nothing like the real card's gigabytes: it fills).
    var card: String { folder + "/card" }
    var dataDirectory: String { card + "/data" }
    private(set) var cardFull = false
    private(set) var cardReadOnly = false
    static let cardBytes = 48 << 20
    var logPath: String { folder + "/daemon.log" }

    init(folder: String, content: String, repository: String, wallStart: Date, timeZone: String, host: LifeHost?) {
        self.folder = folder
        self.content = content
        self.repository = repository
        self.timeZone = timeZone
        self.host = host
        clock = ManualClock(wallNow: wallStart)
        updates = UpdateAgent(folder: folder + "/run/stillroom-update", requestPath: folder + "/run/stillroom/update-request")
        Shell.run("mkdir -p '\(card)' && mount -t tmpfs -o size=\(Self.cardBytes),mode=0755 lifesim-card '\(card)'")
    }

    /// Stops the daemon and takes the card out (unmounted).
    func takeOut() {
        stop()
        Shell.run("umount '\(card)'")
    }

    // MARK: The card

    func fillCard() {
        guard !cardFull else { return }
        writable { Shell.run("fallocate -l $(( $(stat -f -c '%a*%S' '\(card)') )) '\(card)/filler' || true") }
        cardFull = true
    }

    func emptyCard() {
        guard cardFull else { return }
        writable { Shell.run("rm -f '\(card)/filler'") }
        cardFull = false
    }

    func setCardReadOnly(_ readOnly: Bool) {
        guard readOnly != cardReadOnly else { return }
        Shell.run("mount -o remount,\(readOnly ? "ro" : "rw") '\(card)'")
        cardReadOnly = readOnly
    }

    /// Does `change` to a card that may be read-only, as if it had been done before it turned so.
    private func writable(_ change: () -> Void) {
        let wasReadOnly = cardReadOnly
        setCardReadOnly(false)
        change()
        setCardReadOnly(wasReadOnly)
    }

    var running: Bool { daemon != nil }
    /// Whether the kernel would say the wall clock is synchronised: not after a boot with no RTC on an old
    /// saved time, until the sync that puts it right.
    var clockSynchronized = true

    // MARK: The speaker

    /// The speaker is gone (through restarts too: a start finds it gone just after it opened it).
    private(set) var speakerGone = false

    func takeSpeakerAway() {
        speakerGone = true
        removeSpeaker()
        _ = try? virtual?.settle()
    }

    func giveSpeakerBack() {
        speakerGone = false
        (daemon?.audioSink as? PacedSink)?.absent = false
        _ = try? virtual?.settle() // the box finds it at its next try (every 2 s while it is lost)
    }

    /// Opens fail from now on; an open one fails now, as a device pulled out does.
    private func removeSpeaker() {
        guard let sink = daemon?.audioSink as? PacedSink else { return }
        sink.absent = true
        sink.simulateLoss("device removed")
    }

    func start() throws {
        precondition(daemon == nil)
        let loop = try VirtualLoop(clock: clock)
        try host?.attach(to: loop.loop)
        let sources = host.map { ["--manifest", $0.listURL] } ?? []
        let arguments = ["--data-dir", dataDirectory, "--content-dir", content, "--display", "none", "--input", "terminal",
                         "--socket", folder + "/run/control.sock", "--audio-device", "paced", "--content-keys", repository + "/board/keys/development-trusted",
                         "--board", repository + "/board/simulator.conf",
                         "--update-dir", updates.folder, "--update-request", updates.requestPath] + sources
        guard case .run(let options) = try DaemonOptions.parse(arguments) else { preconditionFailure("the arguments ask for no daemon") }
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        keys = (ends[0], ends[1])
        logFD = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        virtual = loop
        if host != nil { loop.afterEachStep = { [unowned self] in settleNetwork() } }
        daemon = try Daemon(options: options, environment: ["TZ": timeZone], logger: Logger(fd: logFD, threshold: .info),
                            loop: loop.loop, terminalFD: ends[0], random: { [unowned self] in Double(jitter.next() >> 11) / Double(1 << 53) },
                            clockSynchronized: { [unowned self] in clockSynchronized })
        let echo = getenv("LIFESIM_SAY") != nil
        daemon?.spokenListener = { [unowned self] text in
            spoken.append(text)
            if echo { print("said: \(text)") }
        }
        if speakerGone { removeSpeaker() }
        DiskCache.folderSynced(holding: dataDirectory + "/stillroom.db") // the daemon's own fsync of the folder
        daemon?.announceReady()
        try loop.settle()
        settleNetwork() // the first turn fetches the list
    }

    /// SIGTERM: the daemon's own orderly stop.
    func stop() {
        guard let daemon else { return }
        _ = daemon.stopDriven()
        drop()
    }

    /// Where the card is kept as it was at a kill's instant, or a cut's.
    private var snapshot: String { folder + "/data.killed" }
    /// Effects still to come before the power is cut (nil: no cut on its way).
    private var effectsBeforeCut: Int?
    /// The power was cut: the card as it was then is kept, and `kill` puts it back.
    private(set) var powerCut = false

    /// Cuts the power right after the box's `effects`-th effect from now (`Daemon.effectPerformed`): the
    /// card is kept as it is at that point, inside the handler, whatever the handler goes on to write.
    func cutPower(afterEffects effects: Int) {
        guard let daemon, effects > 0 else { return }
        effectsBeforeCut = effects
        daemon.effectPerformed = { [unowned self] in
            guard let left = effectsBeforeCut else { return }
            if left > 1 {
                effectsBeforeCut = left - 1
                return
            }
            effectsBeforeCut = nil
            keepCard()
            powerCut = true
        }
    }

    private func keepCard() {
        Shell.run("rm -rf '\(snapshot)' && cp -a '\(dataDirectory)' '\(snapshot)'")
    }

    /// kill -9: the folder as it is now (or as it was when the power was cut) is what the next start
    /// finds; the daemon gets no word.
    func kill() {
        guard daemon != nil else { return }
        if !DiskCache.powerCut { DiskCache.writeBack() } // a kill, or a cut between effects: the kernel still writes back its cache
        if !powerCut { keepCard() }
        powerCut = false
        effectsBeforeCut = nil
        _ = daemon?.stopDriven() // what it writes now goes to the folder thrown away below
        drop() // the last reference: its files close before the card is put back (an open file deleted from a
        // tmpfs keeps it from going read-only again: seed 74)
        // The copy put back may need more room than the folder thrown away frees (the stop gave back room
        // the card then had no other use for): a full card is emptied for it, and filled again after.
        let wasFull = cardFull
        emptyCard()
        writable { Shell.run("rm -rf '\(dataDirectory)' && cp -a '\(snapshot)' '\(dataDirectory)' && rm -rf '\(snapshot)'") }
        if wasFull { fillCard() }
    }

    /// The longest a turn of the box's loop has taken in real time, in all its lives so far.
    var longestTurn: Duration { max(longestTurnBefore, virtual?.longestTurn ?? .zero) }

    /// What the box said since the last call.
    func takeSpoken() -> [String] {
        defer { spoken = [] }
        return spoken
    }

    private func drop() {
        DiskCache.reset() // the next start is a new boot: the card is what the files hold
        spoken = [] // said by a daemon being stopped or killed: after the instant the person heard it end
        longestTurnBefore = longestTurn
        daemon = nil
        host?.detach()
        virtual = nil
        close(logFD)
        logFD = -1
        if let keys {
            close(keys.read)
            close(keys.write)
        }
        keys = nil
    }

    /// Answers `command` as the control socket would, then runs what the answer set in motion.
    @discardableResult
    func request(_ command: ControlCommand) -> Result<ControlReply, ControlError> {
        guard let daemon else { return .failure(ControlError(.failed, "not running")) }
        nextRequest += 1
        let answer = daemon.answer(ControlRequest(id: nextRequest, command))
        _ = try? virtual?.settle()
        return answer
    }

    /// Runs what is ready on the box's loop (files a watcher saw change, timers due now).
    func settle() { _ = try? virtual?.settle() }

    func status() -> StatusReport? {
        guard case .success(.status(let report)) = request(.status) else { return nil }
        return report
    }

    /// Types keys on the box's terminal (the simulator's buttons and jack) and runs what they set off.
    func type(_ text: String) {
        guard let keys else { return }
        _ = text.utf8CString.withUnsafeBufferPointer { write(keys.write, $0.baseAddress, $0.count - 1) }
        _ = try? virtual?.settle()
    }

    /// Moves the box's time on; everything due on the way runs at its time. Off, only the clocks move.
    func advance(by duration: Duration) throws {
        if let virtual { try virtual.advance(by: duration) } else { clock.advance(by: duration) }
    }

    // MARK: The network

    func networkDown() {
        host?.networkDown()
        _ = try? virtual?.settle()
    }

    func networkUp() throws {
        try host?.networkUp(loop: virtual?.loop)
        settleNetwork()
    }

    /// Runs the loop until the downloads' transfers are quiet. The host answers in this process, but
    /// through the kernel's loopback: a turn may find nothing ready while bytes are on their way, so while
    /// something transfers, a turn waits for them on the real clock (loopback takes microseconds; a
    /// quarter of a second with nothing arriving is a quiet network). A retry waiting on its timer is
    /// virtual time's, not this.
    func settleNetwork() {
        guard let host, let virtual else { return }
        for _ in 0..<10_000 {
            // Read before the turns: what the peers have acknowledged by now is in the box's sockets, so
            // the turns below take it.
            let (acknowledged, partsBefore) = (host.delivered, host.partsSent)
            _ = try? virtual.settle()
            guard transferring else { return }
            // A slow host waits on its timer, on the loop's clock: nothing comes in real time until time
            // moves, unless it has just sent a part that its peer may not have yet (the wait below lets
            // that arrive first, at this instant).
            let partTaken = host.partsSent == partsSeen || (acknowledged && host.partsSent == partsBefore)
            partsSeen = host.partsSent
            if host.pacing && partTaken { return }
            if ((try? virtual.loop.runOnce(timeout: .milliseconds(250))) ?? 0) == 0 { return }
        }
    }

    /// The host's `partsSent` when the network was last settled.
    private var partsSeen = 0

    /// A list being fetched, or a download queued, receiving bytes or checking them.
    private var transferring: Bool { daemon?.downloadsAreTransferring ?? false }

    /// Sets the wall clock (a jump: a sync, a person, a bad RTC); the loop's wall timers notice.
    func setWall(_ date: Date) throws {
        clock.setWall(date)
        try virtual?.settle()
    }

    /// The last `count` lines of the box's log, across its lives (what a failure shows beside its seed).
    func logTail(_ count: Int) -> [Substring] {
        let bytes = (try? Files.readAll(logPath, limit: 1 << 30)) ?? []
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").suffix(count)
    }

    /// The log lines written since the last call.
    func newLogLines() -> [Substring] {
        if logReader < 0 { logReader = open(logPath, O_RDONLY | O_CLOEXEC) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(logReader, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        guard !bytes.isEmpty else { return [] }
        // A line is one write(2) (Logger): the bytes read end at a line's end.
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }
}

enum Shell {
    static func run(_ command: String) {
        let status = system(command)
        precondition(status == 0, "lifesim: `\(command)` failed (\(status))")
    }
}
