import TestSupport

/// Where the shipped content lives in the repository, for tests that check it when it is present.
enum BundledContent {
    static var catalogPath: String { RepositoryPaths.content + "/catalog.json" }
}
