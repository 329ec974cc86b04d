import SystemPackage

/// Which file a path leads to, so that two spellings of one file compare equal: `o.sqlite`, `./o.sqlite`,
/// `dir/../o.sqlite`, a symbolic link to it and a hard link to it all give one identity.
///
/// An existing file is its device and inode (`stat`, which follows links). A path where no file exists yet is its
/// folder's device and inode plus its last component, so that a file not yet made (a store's WAL between runs, its
/// snapshot before the first query) is still recognised. Used to refuse an output that would overwrite the store or
/// an input of the same command.
public struct FileIdentity: Hashable, Sendable {
    private enum Location: Hashable {
        /// An existing file.
        case file(device: UInt64, inode: UInt64)
        /// A name not (yet) in an existing folder.
        case entry(folderDevice: UInt64, folderInode: UInt64, name: String)
        /// A path whose folder does not exist either: compared by its spelling, normalised.
        case spelling(String)
    }

    private let location: Location

    /// The identity of the file at `path`, or of the name `path` would create.
    /// - Complexity: O(1): one or two `stat` calls.
    public init(path: String) {
        let filePath = FilePath(path)
        if let info = try? Stat(filePath) {
            location = .file(device: UInt64(info.deviceID.rawValue), inode: UInt64(info.inode.rawValue))
            return
        }
        let normal = filePath.lexicallyNormalized()
        let folder = normal.removingLastComponent()
        let name = normal.lastComponent.map { $0.string } ?? ""
        if let info = try? Stat(folder.isEmpty ? FilePath(".") : folder) {
            location = .entry(folderDevice: UInt64(info.deviceID.rawValue), folderInode: UInt64(info.inode.rawValue), name: name)
        } else {
            location = .spelling(normal.string)
        }
    }
}
