import CairnTestSupport

/// The repository's root (where `Data/` is).
let packageRoot: String = RepositoryData.root.path
