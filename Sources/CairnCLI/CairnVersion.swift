/// The version `cairn --version` prints: the one place it is written (bump it with each release).
enum CairnVersion {
    /// Semantic version of the package.
    static let current = "0.1.0"
}
