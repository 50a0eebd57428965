/// Paths inside the repository, found from this source file's location so tests run from any directory.
public enum RepositoryPaths {
    /// The repository root (the folder holding Package.swift).
    public static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // Tests/TestSupport/RepositoryPaths.swift
        return parts.joined(separator: "/")
    }()

    /// The bundled content folder.
    public static var content: String { root + "/Content" }
    /// The folder of public keys the simulator trusts; scripts/serve-content signs with its private half.
    public static var developmentContentKeys: String { root + "/board/keys/development-trusted" }
}

extension RepositoryPaths {
    /// Test fixtures made by the project (Tests/Fixtures).
    public static func fixture(_ relative: String) -> String { root + "/Tests/Fixtures/" + relative }
}
