/// A downloaded session that could be removed to make room, named in a "not enough space" message.
public struct RemovableDownload: Sendable, Hashable {
    public var sessionID: ContentID
    public var title: String
    public var bytes: Int64

    public init(sessionID: ContentID, title: String, bytes: Int64) {
        self.sessionID = sessionID
        self.title = title
        self.bytes = bytes
    }
}

/// Not enough free space for the rest of a download plus the reserve kept free on the card.
public struct SpaceShortage: Sendable, Hashable {
    /// What the rest of the file needs, plus the reserve.
    public var neededBytes: Int64
    /// What the file system has free for us (statvfs f_bavail × f_frsize), or what the writer's limit left.
    public var availableBytes: Int64
    /// The part of `neededBytes` that is the reserve.
    public var reserveBytes: Int64
    /// Downloaded sessions the owner could remove, largest first.
    public var removable: [RemovableDownload]

    public init(neededBytes: Int64, availableBytes: Int64, reserveBytes: Int64, removable: [RemovableDownload] = []) {
        self.neededBytes = neededBytes
        self.availableBytes = availableBytes
        self.reserveBytes = reserveBytes
        self.removable = removable
    }

    /// How much more must be freed.
    public var missingBytes: Int64 { max(0, neededBytes - availableBytes) }
}

/// Why one attempt at a download failed, or why the download as a whole did.
///
/// Each case knows whether it is worth retrying by itself (`isTransient`), and says in words what
/// happened (`reason`) and what the owner can do (`advice`); the screens and `stillroomctl downloads`
/// show both.
public indirect enum DownloadFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// No connection could be made (refused, unreachable, name not found).
    case cannotConnect(String)
    /// The connection broke during the transfer (curl: partial file, receive error, empty reply).
    case connectionLost(String)
    /// Data stopped arriving, or arrived slower than the low-speed limit for too long.
    case stalled
    /// A time limit passed before any answer came (the connect timeout).
    case timedOut(String)
    /// The server answered with a status that is not a success (404, 500, 503 …).
    case httpStatus(Int)
    /// The transfer ended cleanly but before the manifest's size was reached.
    case endedEarly(received: Int64, expected: Int64)
    /// The server sent, or announced, more bytes than the manifest's size (or the size cap). `bytes` is
    /// nil when curl refused the announced size (CURLOPT_MAXFILESIZE_LARGE) before it could be read.
    case oversize(bytes: Int64?, limit: Int64)
    /// The server's own idea of the file's size (Content-Range) differs from the manifest's.
    case sizeMismatch(server: Int64, manifest: Int64)
    /// A redirect to a host that is not on the allow-list, or to plain http.
    case redirectRefused(String)
    case tooManyRedirects(Int)
    /// An address the downloader may not fetch at all (not on the allow-list, not https).
    case refusedURL(String)
    /// A response that breaks HTTP's rules (a redirect without Location, a bad Content-Range).
    case badResponse(String)
    case checksumMismatch(expected: SHA256Digest, actual: SHA256Digest)
    case diskFull(SpaceShortage)
    /// Writing, syncing or renaming a file failed for another reason (EIO, EROFS …).
    case cannotWrite(String)
    /// The TLS handshake or the certificate check failed.
    case tls(String)
    /// A transcript, breath-cue or provenance file that does not parse.
    case invalidSideFile(String)
    /// A list of sessions the maker's key does not vouch for (no signature, a bad one, an older version).
    case untrustedList(String)
    /// The copy on this box no longer matches what was verified (found at start-up).
    case damagedOnBox(String)
    /// The last of too many transient failures in a row.
    case gaveUp(attempts: Int, last: DownloadFailure)
    /// A failure read back from the database after a restart (its words, not its kind, were kept).
    case recorded(reason: String, advice: String)

    /// Whether the same request may well work a little later (with backoff): a dropped or stalled
    /// connection, a timeout, 5xx, 429 and 408. Everything else needs a person or a different server.
    public var isTransient: Bool {
        switch self {
        case .cannotConnect, .connectionLost, .stalled, .timedOut, .endedEarly:
            return true
        case .httpStatus(let status):
            return (500...599).contains(status) || status == 429 || status == 408
        default:
            return false
        }
    }

    /// What happened, as a sentence.
    public var reason: String {
        switch self {
        case .cannotConnect(let detail):
            return "Could not reach the download server (\(detail))."
        case .connectionLost(let detail):
            return "The connection was lost during the download (\(detail))."
        case .stalled:
            return "The download stalled: no data arrived for too long."
        case .timedOut(let detail):
            return "The download server did not answer in time (\(detail))."
        case .httpStatus(let status):
            let name = Self.statusName(status)
            return "The server answered HTTP \(status)\(name.isEmpty ? "" : " " + name)."
        case .endedEarly(let received, let expected):
            return "The server ended the transfer after \(ByteCountText.text(received)) of \(ByteCountText.text(expected))."
        case .oversize(let bytes?, let limit):
            return "The server sent or announced \(ByteCountText.text(bytes)), more than the \(ByteCountText.text(limit)) the list of sessions allows."
        case .oversize(nil, let limit):
            return "The server announced a file larger than the \(ByteCountText.text(limit)) the list of sessions allows."
        case .sizeMismatch(let server, let manifest):
            return "The server's file is \(ByteCountText.text(server)) but the list of sessions says \(ByteCountText.text(manifest))."
        case .redirectRefused(let detail):
            return "The server redirected the download to an address that is not allowed (\(detail))."
        case .tooManyRedirects(let count):
            return "The server redirected the download more than \(count) times."
        case .refusedURL(let detail):
            return "This address may not be downloaded from (\(detail))."
        case .badResponse(let detail):
            return "The server sent a broken answer (\(detail))."
        case .checksumMismatch(let expected, let actual):
            return "The downloaded file does not match its checksum (expected \(expected.hex.prefix(12))…, got \(actual.hex.prefix(12))…), so it was discarded."
        case .diskFull(let shortage):
            var text = "Not enough free space: \(ByteCountText.text(shortage.missingBytes)) more is needed"
            text += " (\(ByteCountText.text(shortage.neededBytes - shortage.reserveBytes)) for the download"
            text += " and \(ByteCountText.text(shortage.reserveBytes)) kept free; "
                + (shortage.availableBytes <= 0 ? "the card has no room left)." : "\(ByteCountText.text(shortage.availableBytes)) free now).")
            return text
        case .cannotWrite(let detail):
            return "The download could not be saved (\(detail))."
        case .tls(let detail):
            return "The secure connection to the server failed (\(detail))."
        case .invalidSideFile(let detail):
            return "A file that belongs to the session is damaged (\(detail))."
        case .untrustedList(let detail):
            return "The list of sessions was not used: \(detail)."
        case .damagedOnBox(let detail):
            return "The downloaded copy on this box is damaged (\(detail)), so it was removed."
        case .gaveUp(let attempts, let last):
            return "Gave up after \(attempts) attempts. \(last.reason)"
        case .recorded(let reason, _):
            return reason
        }
    }

    /// What the owner can do about it.
    public var advice: String {
        switch self {
        case .cannotConnect, .connectionLost, .stalled, .timedOut, .endedEarly, .gaveUp:
            return "Check the network connection, then choose Retry."
        case .httpStatus(let status) where status == 404 || status == 410:
            return "The session may have been withdrawn; refresh the list of sessions."
        case .httpStatus(let status) where status == 401 || status == 403:
            return "The server refuses this download; check the configured download address."
        case .httpStatus:
            return "Try again later; if it keeps failing, the server has a problem."
        case .oversize, .sizeMismatch, .checksumMismatch, .badResponse, .invalidSideFile:
            return "The server is sending a different or damaged file. Try again later, or tell whoever publishes these sessions."
        case .redirectRefused, .tooManyRedirects, .refusedURL:
            return "Only the configured download hosts are used. Check the download configuration."
        case .diskFull(let shortage):
            let names = shortage.removable.prefix(3).map { "\"\($0.title)\" (\(ByteCountText.text($0.bytes)))" }
            if names.isEmpty {
                return "Free \(ByteCountText.text(shortage.missingBytes)) on the card, then choose Retry."
            }
            return "Remove downloaded sessions you no longer need, such as \(names.joined(separator: ", ")), or free \(ByteCountText.text(shortage.missingBytes)) otherwise, then choose Retry."
        case .damagedOnBox:
            return "Download it again; if this keeps happening, the memory card may be failing."
        case .cannotWrite:
            return "The memory card may be failing or read-only; check it, then choose Retry."
        case .tls:
            return "Check the box's date and time (certificates need them), then choose Retry."
        case .untrustedList:
            return "The sessions already on the box stay as they are. Tell whoever publishes these sessions."
        case .recorded(_, let advice):
            return advice
        }
    }

    public var description: String { "\(reason) \(advice)" }

    /// A short name for a kind of failure, for logs and `--json` output ("http_404", "disk_full").
    public var code: String {
        switch self {
        case .cannotConnect: "cannot_connect"
        case .connectionLost: "connection_lost"
        case .stalled: "stalled"
        case .timedOut: "timed_out"
        case .httpStatus(let status): "http_\(status)"
        case .endedEarly: "ended_early"
        case .oversize: "oversize"
        case .sizeMismatch: "size_mismatch"
        case .redirectRefused: "redirect_refused"
        case .tooManyRedirects: "too_many_redirects"
        case .refusedURL: "refused_url"
        case .badResponse: "bad_response"
        case .checksumMismatch: "checksum_mismatch"
        case .diskFull: "disk_full"
        case .cannotWrite: "cannot_write"
        case .tls: "tls"
        case .invalidSideFile: "invalid_side_file"
        case .untrustedList: "untrusted_list"
        case .damagedOnBox: "damaged_on_box"
        case .gaveUp: "gave_up"
        case .recorded: "failed"
        }
    }

    static func statusName(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 416: "Range Not Satisfiable"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: (300...399).contains(status) ? "Redirect" : ""
        }
    }
}

extension DownloadFailure {
    /// How a failure is kept in `AudioDownloadRecord.error`: the reason, a line break, the advice.
    public var recordText: String { "\(reason)\n\(advice)" }

    /// Reads `recordText` back.
    public init(recordText: String) {
        if let newline = recordText.firstIndex(of: "\n") {
            self = .recorded(reason: String(recordText[..<newline]), advice: String(recordText[recordText.index(after: newline)...]))
        } else {
            self = .recorded(reason: recordText, advice: "Choose Retry to download it again.")
        }
    }
}
