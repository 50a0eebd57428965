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
import CryptoHash
import EventLoop
import StillroomCore

/// A libcurl multi handle on an event loop. Must be used on the loop's thread.
final class CurlMulti {
    private let loop: EventLoop
    /// Made by the first transfer: until something is fetched, libcurl is not even loaded.
    private var multi: UnsafeMutableRawPointer?
    private var watches: [Int32: IOWatch] = [:]
    private var timer: LoopTimer?
    /// Transfers added to curl, by their easy handle's address.
    private var transfers: [UInt: CurlTransfer] = [:]
    /// Depth of calls into curl that may run transfer callbacks.
    private var curlDepth = 0
    private var deferred: [() -> Void] = []
    private let log: (String) -> Void

    init(loop: EventLoop, log: @escaping (String) -> Void) {
        self.loop = loop
        self.log = log
        timer = loop.makeTimer { [unowned self] in
            drive(socket: stillroom_socket_timeout(), flags: 0)
        }
    }

    deinit {
        timer?.cancel()
        guard let multi else { return }
        // From here on curl's callbacks find no object: nothing may reach a half-destroyed one.
        _ = stillroom_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, nil)
        _ = stillroom_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, nil)
        for transfer in transfers.values {
            stillroom_curl_multi_remove_handle(multi, transfer.easy)
        }
        transfers.removeAll()
        for watch in watches.values { watch.cancel() }
        stillroom_curl_multi_cleanup(multi)
    }

    /// curl's multi handle, made for the first transfer (which has loaded libcurl: CurlTransfer's init).
    private func handle() throws(DownloadFailure) -> UnsafeMutableRawPointer {
        if let multi { return multi }
        try CurlGlobal.ensureInitializedForTransfer()
        guard let made = stillroom_curl_multi_init() else { throw .cannotConnect("curl_multi_init failed") }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var code = stillroom_multi_setopt_socket_function(made, curlSocketCallback)
        if code == CURLM_OK { code = stillroom_multi_setopt_pointer(made, CURLMOPT_SOCKETDATA, context) }
        if code == CURLM_OK { code = stillroom_multi_setopt_timer_function(made, curlTimerCallback) }
        if code == CURLM_OK { code = stillroom_multi_setopt_pointer(made, CURLMOPT_TIMERDATA, context) }
        guard code == CURLM_OK else {
            stillroom_curl_multi_cleanup(made)
            throw .cannotConnect("curl_multi_setopt: \(String(cString: stillroom_curl_multi_strerror(code)))")
        }
        multi = made
        return made
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
        let multi: UnsafeMutableRawPointer
        do {
            multi = try handle()
        } catch {
            transfer.finish(with: .failed(error))
            return
        }
        transfers[UInt(bitPattern: transfer.easy)] = transfer
        let code = stillroom_curl_multi_add_handle(multi, transfer.easy)
        if code != CURLM_OK {
            transfers[UInt(bitPattern: transfer.easy)] = nil
            transfer.finish(with: .failed(.connectionLost("curl_multi_add_handle: \(String(cString: stillroom_curl_multi_strerror(code)))")))
        }
    }

    /// Stops `transfer` at once, without calling its `onFinish`. Safe from inside its own callbacks.
    func remove(_ transfer: CurlTransfer) {
        transfer.abort()
        guard curlDepth == 0 else {
            deferred.append { [self] in remove(transfer) }
            return
        }
        guard let multi, transfers.removeValue(forKey: UInt(bitPattern: transfer.easy)) != nil else { return }
        let code = stillroom_curl_multi_remove_handle(multi, transfer.easy)
        if code != CURLM_OK { log("curl_multi_remove_handle: \(String(cString: stillroom_curl_multi_strerror(code)))") }
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
        guard let multi else { return } // curl asks for watches and timers only once it has a handle
        var running: Int32 = 0
        curlDepth += 1
        let code = stillroom_curl_multi_socket_action(multi, socket, flags, &running)
        curlDepth -= 1
        if code != CURLM_OK { log("curl_multi_socket_action: \(String(cString: stillroom_curl_multi_strerror(code)))") }
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
        guard let multi else { return }
        var finished: [(CurlTransfer, CURLcode)] = []
        while true {
            var remaining: Int32 = 0
            guard let message = stillroom_curl_multi_info_read(multi, &remaining) else { break }
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let result = stillroom_message_result(message)
            guard let transfer = transfers.removeValue(forKey: UInt(bitPattern: easy)) else { continue }
            stillroom_curl_multi_remove_handle(multi, easy)
            finished.append((transfer, result))
        }
        // Reported after curl is done with its message list: a report may add or remove transfers.
        for (transfer, result) in finished { transfer.complete(result) }
    }
}

/// libcurl loaded and `curl_global_init` called, once per process (it is not safe to race, so a
/// `static let` guards it): the first fetch's work, not the start's (CLazyLibrary says why).
enum CurlGlobal {
    private static let initialization: String? = {
        if let failure = stillroom_curl_load() {
            return "libcurl could not be loaded (\(String(cString: failure))); downloads need Debian's libcurl4 package"
        }
        // Every download is checked against its SHA-256; libcurl brings the same libcrypto for TLS.
        if let failure = SHA256Hasher.loadLibrary() { return "\(failure); downloads need OpenSSL's libcrypto" }
        let code = stillroom_curl_global_init()
        return code == CURLE_OK ? nil : "curl_global_init: \(String(cString: stillroom_curl_easy_strerror(code)))"
    }()

    static func ensureInitialized() throws(DownloadSetupError) {
        if let failure = initialization { throw DownloadSetupError(failure) }
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

/// A download machinery that could not be set up: the downloads folder at start, or libcurl at the first
/// fetch (a fetch then fails with these words).
public struct DownloadSetupError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
