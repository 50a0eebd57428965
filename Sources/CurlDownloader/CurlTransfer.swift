// One HTTP GET through a libcurl easy handle. Redirects are not followed by curl (CURLOPT_FOLLOWLOCATION
// is off): the caller sees each 3xx head and decides, so every hop is checked against the allow-list.
// Only https is allowed, plus http when the URL names this box itself (tests and the demo server).

internal import CCurl
import StillroomCore

/// How a transfer ended, when it was not stopped by its owner.
enum TransferOutcome: Sendable, Equatable {
    /// The response was received in full (as far as HTTP framing tells).
    case completed
    case failed(DownloadFailure)
}

/// Limits applied to every request.
public struct TransferLimits: Sendable, Hashable {
    /// A transfer slower than `lowSpeedBytesPerSecond` for `lowSpeedTime` is a stall (CURLOPT_LOW_SPEED_*).
    public var lowSpeedBytesPerSecond: Int
    public var lowSpeedTime: Duration
    /// CURLOPT_CONNECTTIMEOUT_MS.
    public var connectTimeout: Duration
    /// The largest manifest accepted.
    public var manifestByteLimit: Int64
    /// The largest transcript, breath-cue or provenance file accepted.
    public var sideFileByteLimit: Int64
    public var userAgent: String

    public init(lowSpeedBytesPerSecond: Int = 256, lowSpeedTime: Duration = .seconds(60), connectTimeout: Duration = .seconds(20),
                manifestByteLimit: Int64 = 1_000_000, sideFileByteLimit: Int64 = 1_000_000, userAgent: String = "Stillroom/1") {
        self.lowSpeedBytesPerSecond = lowSpeedBytesPerSecond
        self.lowSpeedTime = lowSpeedTime
        self.connectTimeout = connectTimeout
        self.manifestByteLimit = manifestByteLimit
        self.sideFileByteLimit = sideFileByteLimit
        self.userAgent = userAgent
    }
}

/// One request. Set the callbacks, then hand it to `CurlMulti.add`. Loop thread only.
final class CurlTransfer {
    let url: RemoteURL
    let offset: Int64
    let easy: UnsafeMutableRawPointer
    /// The response head (after any 1xx): return false to stop (the transfer then ends silently).
    var onHead: ((ResponseHead) -> Bool)?
    /// A piece of the body: return false to stop (silently).
    var onBody: ((UnsafeRawBufferPointer) -> Bool)?
    /// Called once when curl finishes the transfer, unless it was stopped first.
    var onFinish: ((TransferOutcome) -> Void)?
    private(set) var isAborted = false
    private(set) var head: ResponseHead?
    private(set) var bodyBytes: Int64 = 0
    private var status: Int?
    private var headerLines: [String] = []
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let maximumBytes: Int64

    /// - Parameters:
    ///   - offset: ask for the bytes from here on (`Range: bytes=offset-`) when > 0.
    ///   - maximumBytes: CURLOPT_MAXFILESIZE_LARGE; a larger announced body fails as oversize.
    init(url: RemoteURL, offset: Int64, maximumBytes: Int64, limits: TransferLimits) throws(DownloadFailure) {
        guard url.isPermittedForDownload else {
            throw .refusedURL("\(url.description) uses plain http, which is only allowed to this box itself")
        }
        try CurlGlobal.ensureInitializedForTransfer()
        guard let easy = stillroom_curl_easy_init() else { throw .cannotConnect("curl_easy_init failed") }
        self.url = url
        self.offset = offset
        self.easy = easy
        self.maximumBytes = maximumBytes
        let size = Int(stillroom_error_size())
        errorBuffer = .allocate(capacity: size)
        errorBuffer.initialize(repeating: 0, count: size)

        let context = Unmanaged.passUnretained(self).toOpaque()
        var code = CURLE_OK
        func set(_ option: CURLoption, _ value: Int) { if code == CURLE_OK { code = stillroom_easy_setopt_long(easy, option, value) } }
        func set(_ option: CURLoption, _ value: String) { if code == CURLE_OK { code = stillroom_easy_setopt_string(easy, option, value) } }
        func set(_ option: CURLoption, offset value: Int64) { if code == CURLE_OK { code = stillroom_easy_setopt_offset(easy, option, curl_off_t(value)) } }
        func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer) {
            if code == CURLE_OK { code = stillroom_easy_setopt_pointer(easy, option, value) }
        }
        set(CURLOPT_URL, url.description)
        // https only; plain http only to loopback (isPermittedForDownload checked that above).
        set(CURLOPT_PROTOCOLS_STR, url.scheme == .https ? "https" : "http")
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_NOPROGRESS, 1)
        set(CURLOPT_MAXFILESIZE_LARGE, offset: maximumBytes)
        set(CURLOPT_LOW_SPEED_LIMIT, limits.lowSpeedBytesPerSecond)
        set(CURLOPT_LOW_SPEED_TIME, max(1, Int(limits.lowSpeedTime.seconds.rounded(.up))))
        set(CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(limits.connectTimeout.totalNanoseconds / 1_000_000)))
        set(CURLOPT_USERAGENT, limits.userAgent)
        // The box itself is never reached through a proxy from the environment (the demo server, tests).
        set(CURLOPT_NOPROXY, "127.0.0.1,localhost,::1")
        // Raw bytes: no Accept-Encoding, so sizes and digests are those of the file itself.
        if offset > 0 { set(CURLOPT_RANGE, "\(offset)-") }
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        set(CURLOPT_PRIVATE, pointer: context)
        set(CURLOPT_WRITEDATA, pointer: context)
        set(CURLOPT_HEADERDATA, pointer: context)
        if code == CURLE_OK { code = stillroom_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, curlBodyCallback) }
        if code == CURLE_OK { code = stillroom_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback) }
        guard code == CURLE_OK else {
            let message = String(cString: stillroom_curl_easy_strerror(code))
            stillroom_curl_easy_cleanup(easy)
            errorBuffer.deallocate()
            throw .refusedURL("curl_easy_setopt: \(message)")
        }
    }

    deinit {
        stillroom_curl_easy_cleanup(easy)
        errorBuffer.deallocate()
    }

    /// Makes every later callback stop the transfer, and suppresses `onFinish`.
    func abort() { isAborted = true }

    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !isAborted else { return false }
        let line = String(decoding: bytes, as: UTF8.self).trimmingASCIISpacesAndNewlines()
        if let status = ResponseHead.status(ofStatusLine: line) {
            self.status = status
            headerLines.removeAll()
            return true
        }
        guard line.isEmpty else {
            headerLines.append(line)
            return true
        }
        guard let status else { return true }
        if (100...199).contains(status) {
            self.status = nil
            return true
        }
        let head = ResponseHead(status: status, headerLines: headerLines)
        self.head = head
        let accepted = onHead?(head) ?? true
        if !accepted { isAborted = true }
        return accepted && !isAborted
    }

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !isAborted, head != nil else { return false }
        bodyBytes += Int64(bytes.count)
        let accepted = onBody?(bytes) ?? true
        if !accepted { isAborted = true }
        return accepted && !isAborted
    }

    /// From CurlMulti: curl finished this transfer with `code`.
    func complete(_ code: CURLcode) {
        guard !isAborted else { return }
        if code == CURLE_OK {
            finish(with: head == nil ? .failed(.badResponse("no HTTP response")) : .completed)
        } else {
            finish(with: .failed(failure(for: code)))
        }
    }

    func finish(with outcome: TransferOutcome) {
        guard let onFinish else { return }
        self.onFinish = nil
        onFinish(outcome)
    }

    /// Sorts curl's result codes into the downloader's failure kinds (transient or not).
    private func failure(for code: CURLcode) -> DownloadFailure {
        let buffered = String(cString: errorBuffer)
        let detail = buffered.isEmpty ? String(cString: stillroom_curl_easy_strerror(code)) : buffered
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            return .cannotConnect(detail)
        case CURLE_OPERATION_TIMEDOUT:
            return head == nil ? .timedOut(detail) : .stalled
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connectionLost(detail)
        case CURLE_FILESIZE_EXCEEDED:
            var announced: curl_off_t = -1
            _ = stillroom_easy_getinfo_offset(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced) // -1 stays when unknown
            return .oversize(bytes: announced > 0 ? Int64(announced) + offset : nil, limit: maximumBytes)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .tls(detail)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .refusedURL(detail)
        case CURLE_WRITE_ERROR:
            return .cannotWrite(detail)
        default:
            return .connectionLost("curl error \(code.rawValue): \(detail)")
        }
    }
}

extension CurlGlobal {
    /// Same as `ensureInitialized`, with the failure a transfer reports.
    static func ensureInitializedForTransfer() throws(DownloadFailure) {
        do {
            try ensureInitialized()
        } catch {
            throw .cannotConnect(error.message)
        }
    }
}

extension String {
    /// Without leading spaces and trailing spaces, CR and LF (by bytes: "\r\n" is one Character).
    func trimmingASCIISpacesAndNewlines() -> String {
        var bytes = Array(utf8)[...]
        while let last = bytes.last, last == 13 || last == 10 || last == 32 || last == 9 { bytes.removeLast() }
        while let first = bytes.first, first == 32 || first == 9 { bytes.removeFirst() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// CURLOPT_HEADERFUNCTION: one header line per call (status line, headers, the empty line).
private let curlHeaderCallback: curl_write_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.receiveHeader(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
}

/// CURLOPT_WRITEFUNCTION: a piece of the body. Returning less than `length` makes curl stop.
private let curlBodyCallback: curl_write_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.receiveBody(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
}
