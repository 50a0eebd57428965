// libcurl's multi socket API driven by the event loop: curl tells us which sockets to watch
// (CURLMOPT_SOCKETFUNCTION) and when to wake it (CURLMOPT_TIMERFUNCTION); we tell curl which socket is
// ready (curl_multi_socket_action) and read finished transfers (curl_multi_info_read). No threads, no
// blocking, no polling: an idle multi handle has no watches and no timer.
//
// libcurl forbids calling the multi API from inside its own callbacks. Transfers' header and body
// callbacks run inside curl_multi_socket_action, and what they report may make the manager stop this
// transfer or start another; so `add` and `remove` made while curl is running are queued and done as
// soon as it returns.

internal import CCurl
import EventLoop
import StillroomCore

/// A libcurl multi handle on an event loop. Must be used on the loop's thread.
final class CurlMulti {
    private let loop: EventLoop
    private let multi: UnsafeMutableRawPointer
    private var watches: [Int32: IOWatch] = [:]
    private var timer: LoopTimer?
    /// Transfers added to curl, by their easy handle's address.
    private var transfers: [UInt: CurlTransfer] = [:]
    /// Depth of calls into curl that may run transfer callbacks.
    private var curlDepth = 0
    private var deferred: [() -> Void] = []
    private let log: (String) -> Void

    init(loop: EventLoop, log: @escaping (String) -> Void) throws(DownloadSetupError) {
        try CurlGlobal.ensureInitialized()
        guard let multi = curl_multi_init() else { throw DownloadSetupError("curl_multi_init failed") }
        self.loop = loop
        self.multi = multi
        self.log = log
        let context = Unmanaged.passUnretained(self).toOpaque()
        var code = stillroom_multi_setopt_socket_function(multi, curlSocketCallback)
        if code == CURLM_OK { code = stillroom_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context) }
        if code == CURLM_OK { code = stillroom_multi_setopt_timer_function(multi, curlTimerCallback) }
        if code == CURLM_OK { code = stillroom_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context) }
        guard code == CURLM_OK else {
            curl_multi_cleanup(multi)
            throw DownloadSetupError("curl_multi_setopt: \(String(cString: curl_multi_strerror(code)))")
        }
        timer = loop.makeTimer { [unowned self] in
            drive(socket: stillroom_socket_timeout(), flags: 0)
        }
    }

    deinit {
        // From here on curl's callbacks find no object: nothing may reach a half-destroyed one.
        _ = stillroom_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, nil)
        _ = stillroom_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, nil)
        for transfer in transfers.values {
            curl_multi_remove_handle(multi, transfer.easy)
        }
        transfers.removeAll()
        for watch in watches.values { watch.cancel() }
        timer?.cancel()
        curl_multi_cleanup(multi)
    }

    /// The transfers in progress.
    var activeCount: Int { transfers.count }

    /// Starts `transfer`. Its `onFinish` is called once, from the loop, unless it is removed first.
    func add(_ transfer: CurlTransfer) {
        guard curlDepth == 0 else {
            deferred.append { [self] in add(transfer) }
            return
        }
        guard !transfer.isAborted else { return }
        transfers[UInt(bitPattern: transfer.easy)] = transfer
        let code = curl_multi_add_handle(multi, transfer.easy)
        if code != CURLM_OK {
            transfers[UInt(bitPattern: transfer.easy)] = nil
            transfer.finish(with: .failed(.connectionLost("curl_multi_add_handle: \(String(cString: curl_multi_strerror(code)))")))
        }
    }

    /// Stops `transfer` at once, without calling its `onFinish`. Safe from inside its own callbacks.
    func remove(_ transfer: CurlTransfer) {
        transfer.abort()
        guard curlDepth == 0 else {
            deferred.append { [self] in remove(transfer) }
            return
        }
        guard transfers.removeValue(forKey: UInt(bitPattern: transfer.easy)) != nil else { return }
        let code = curl_multi_remove_handle(multi, transfer.easy)
        if code != CURLM_OK { log("curl_multi_remove_handle: \(String(cString: curl_multi_strerror(code)))") }
    }

    // MARK: Callbacks from curl

    /// CURLMOPT_SOCKETFUNCTION: watch `fd` for what curl asks, or stop watching it.
    fileprivate func socketChanged(_ fd: Int32, what: Int32) -> Int32 {
        if what == CURL_POLL_REMOVE {
            watches.removeValue(forKey: fd)?.cancel()
            return 0
        }
        var events: IOEvents = []
        if what == CURL_POLL_IN || what == CURL_POLL_INOUT { events.insert(.readable) }
        if what == CURL_POLL_OUT || what == CURL_POLL_INOUT { events.insert(.writable) }
        if let watch = watches[fd], watch.isActive {
            do {
                try watch.update(events: events)
                return 0
            } catch {
                // The descriptor was closed and its number reused behind our back: watch it afresh.
                watch.cancel()
            }
        }
        watches[fd] = nil
        do {
            watches[fd] = try loop.watch(fd, for: events) { [unowned self] ready in
                var flags: Int32 = 0
                if !ready.intersection([.readable, .hangUp]).isEmpty { flags |= CURL_CSELECT_IN }
                if ready.contains(.writable) { flags |= CURL_CSELECT_OUT }
                if ready.contains(.error) { flags |= CURL_CSELECT_ERR }
                drive(socket: fd, flags: flags)
            }
            return 0
        } catch {
            log("cannot watch curl's socket \(fd): \(error)")
            return -1
        }
    }

    /// CURLMOPT_TIMERFUNCTION: one timer, re-armed or removed as curl asks.
    fileprivate func timerChanged(milliseconds: Int) -> Int32 {
        if milliseconds < 0 {
            timer?.cancel()
        } else {
            // 0 means "as soon as possible": the next loop iteration, never from inside this callback.
            timer?.schedule(after: .milliseconds(milliseconds))
        }
        return 0
    }

    // MARK: Driving

    private func drive(socket: curl_socket_t, flags: Int32) {
        var running: Int32 = 0
        curlDepth += 1
        let code = curl_multi_socket_action(multi, socket, flags, &running)
        curlDepth -= 1
        if code != CURLM_OK { log("curl_multi_socket_action: \(String(cString: curl_multi_strerror(code)))") }
        runDeferred()
        collectFinished()
        runDeferred()
    }

    private func runDeferred() {
        while curlDepth == 0, !deferred.isEmpty {
            let work = deferred
            deferred.removeAll()
            for item in work { item() }
        }
    }

    /// Reads the transfers curl finished, removes them, and reports each one.
    private func collectFinished() {
        var finished: [(CurlTransfer, CURLcode)] = []
        while true {
            var remaining: Int32 = 0
            guard let message = curl_multi_info_read(multi, &remaining) else { break }
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let result = stillroom_message_result(message)
            guard let transfer = transfers.removeValue(forKey: UInt(bitPattern: easy)) else { continue }
            curl_multi_remove_handle(multi, easy)
            finished.append((transfer, result))
        }
        // Reported after curl is done with its message list: a report may add or remove transfers.
        for (transfer, result) in finished { transfer.complete(result) }
    }
}

/// `curl_global_init`, once per process (it is not safe to race, so a `static let` guards it).
enum CurlGlobal {
    private static let initialization: CURLcode = stillroom_curl_global_init()

    static func ensureInitialized() throws(DownloadSetupError) {
        let code = initialization
        guard code == CURLE_OK else { throw DownloadSetupError("curl_global_init: \(String(cString: curl_easy_strerror(code)))") }
    }
}

private let curlSocketCallback: curl_socket_callback = { _, fd, what, context, _ in
    guard let context else { return 0 } // the multi handle is being cleaned up; its watches are cancelled
    return Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue().socketChanged(fd, what: what)
}

private let curlTimerCallback: curl_multi_timer_callback = { _, milliseconds, context in
    guard let context else { return 0 }
    return Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue().timerChanged(milliseconds: milliseconds)
}

/// A download machinery that could not be set up (curl or the downloads folder).
public struct DownloadSetupError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
