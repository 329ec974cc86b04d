/// The version of Cairn that `cairn --version` and `cairn serve --version` print: the one place it is written (bump
/// it with each release), in CairnCore so that both executables and any library user read the same one.
public enum CairnVersion {
    /// Semantic version of the package.
    public static let current = "0.1.0"
}
