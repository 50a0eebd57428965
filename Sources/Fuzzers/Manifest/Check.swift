import StillroomCore

// The remote manifest parser: any bytes give sessions and problems, never a crash; every remote URL
// that survives is one the downloader may fetch.
func check(_ bytes: [UInt8]) {
    guard let base = try? RemoteURL(parsing: "http://127.0.0.1:8017/remote/manifest.json") else { return }
    let result = CatalogParser.parseManifest(bytes, fileName: "manifest.json", manifestURL: base)
    for session in result.catalog.sessions {
        if case .remote(let remote) = session.audio {
            precondition(remote.url.isPermittedForDownload && remote.byteCount > 0)
        }
    }
}
