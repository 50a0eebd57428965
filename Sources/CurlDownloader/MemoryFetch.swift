// A small file fetched into memory (a manifest, a transcript, a provenance record): a size cap, the
// allow-list checked at every redirect hop, and one answer at the end. Retrying is the caller's choice.

import StillroomCore

/// One small GET into memory. Loop thread only.
final class MemoryFetch {
    private let multi: CurlMulti
    private let hosts: DownloadHostAllowList
    private let limit: Int64
    private let maximumRedirects: Int
    private let limits: TransferLimits
    private var completion: ((Result<[UInt8], DownloadFailure>) -> Void)?
    private var transfer: CurlTransfer?
    private var redirects = 0
    private var body: [UInt8] = []

    init(multi: CurlMulti, hosts: DownloadHostAllowList, limit: Int64, maximumRedirects: Int, limits: TransferLimits) {
        self.multi = multi
        self.hosts = hosts
        self.limit = limit
        self.maximumRedirects = maximumRedirects
        self.limits = limits
    }

    /// Fetches `url`; `completion` runs once, on the loop, unless `cancel()` comes first.
    func start(_ url: RemoteURL, completion: @escaping (Result<[UInt8], DownloadFailure>) -> Void) {
        self.completion = completion
        if let refusal = hosts.refusal(of: url) {
            finish(.failure(.refusedURL(refusal)))
            return
        }
        request(url)
    }

    func cancel() {
        completion = nil
        if let transfer { multi.remove(transfer) }
        transfer = nil
    }

    private func request(_ url: RemoteURL) {
        body.removeAll()
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(url: url, offset: 0, maximumBytes: limit, limits: limits)
        } catch {
            finish(.failure(error))
            return
        }
        self.transfer = transfer
        // Methods, not closure bodies: a callback may end this fetch and let its owner drop it, and a
        // method keeps the object alive until it returns.
        transfer.onHead = { [unowned self, unowned transfer] head in receiveHead(head, of: transfer, url: url) }
        transfer.onBody = { [unowned self, unowned transfer] bytes in receiveBody(bytes, of: transfer) }
        transfer.onFinish = { [unowned self, unowned transfer] outcome in finished(transfer, outcome) }
        multi.add(transfer)
    }

    private func receiveHead(_ head: ResponseHead, of transfer: CurlTransfer, url: RemoteURL) -> Bool {
        guard self.transfer === transfer else { return false }
        switch head.status {
        case 200...299:
            if let length = head.contentLength, length > limit {
                stop(.failure(.oversize(bytes: length, limit: limit)))
                return false
            }
            return true
        case 300...399:
            switch hosts.followRedirect(from: url, location: head.location) {
            case .failure(let failure):
                stop(.failure(failure))
            case .success(let next):
                guard redirects < maximumRedirects else {
                    stop(.failure(.tooManyRedirects(maximumRedirects)))
                    return false
                }
                redirects += 1
                multi.remove(transfer)
                request(next)
            }
            return false
        default:
            stop(.failure(.httpStatus(head.status)))
            return false
        }
    }

    private func receiveBody(_ bytes: UnsafeRawBufferPointer, of transfer: CurlTransfer) -> Bool {
        guard self.transfer === transfer else { return false }
        guard Int64(body.count + bytes.count) <= limit else {
            stop(.failure(.oversize(bytes: Int64(body.count + bytes.count), limit: limit)))
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    private func finished(_ transfer: CurlTransfer, _ outcome: TransferOutcome) {
        guard self.transfer === transfer else { return }
        self.transfer = nil
        switch outcome {
        case .completed: finish(.success(body))
        case .failed(let failure): finish(.failure(failure))
        }
    }

    /// Ends the fetch from inside a transfer callback.
    private func stop(_ result: Result<[UInt8], DownloadFailure>) {
        if let transfer { multi.remove(transfer) }
        transfer = nil
        finish(result)
    }

    private func finish(_ result: Result<[UInt8], DownloadFailure>) {
        guard let completion else { return }
        self.completion = nil
        completion(result)
    }
}
