import StillroomCore

// The catalog parser: any bytes give a catalog (maybe empty) and problems, never a crash; every session
// that survives validation has safe ids and paths.
func check(_ bytes: [UInt8]) {
    let result = CatalogParser.parseCatalog(bytes, fileName: "catalog.json")
    for session in result.catalog.sessions {
        precondition(!session.id.rawValue.isEmpty && !session.id.rawValue.contains("/"))
        if case .bundled(let path) = session.audio {
            // ".." inside a name ("sessio..ns") is a name; only a ".." component climbs out.
            precondition(!path.rawValue.split(separator: "/").contains("..") && !path.rawValue.hasPrefix("/"))
        }
    }
}
