import CairnIO
#if canImport(Glibc)
import Glibc
#endif

/// Refuses an output path that is a file the same command reads or keeps: the store, its WAL, shared-memory,
/// journal and snapshot files, or an input. Files are compared by identity (`FileIdentity`: device and inode), so
/// `./o.sqlite`, a symbolic link or a hard link to the store is caught as well as its own spelling.
struct OutputPathCheck {
    /// A file an output must not replace: what it is (for the message) and its path.
    struct Guarded {
        let role: String
        let path: String
    }

    private var guarded: [Guarded] = []

    /// The store at `path` and the files SQLite and the query commands keep beside it; `includingSnapshot` is
    /// false for `cairn snapshot`, whose output is that snapshot.
    mutating func store(_ path: String, option: String = "--db", includingSnapshot: Bool = true) {
        guarded.append(Guarded(role: "the store (\(option) \(path))", path: path))
        // SQLite names the side files of a linked store after the file the link resolves to.
        var bases = [path]
        // realpath returns NULL with errno when the path cannot be resolved (no store yet): the spelling then.
        if let resolved = realpath(path, nil) {
            bases.append(String(cString: resolved))
            free(resolved)
        }
        for base in bases {
            guarded.append(Guarded(role: "the store's write-ahead log", path: base + "-wal"))
            guarded.append(Guarded(role: "the store's shared-memory index", path: base + "-shm"))
            guarded.append(Guarded(role: "the store's rollback journal", path: base + "-journal"))
        }
        if includingSnapshot { guarded.append(Guarded(role: "the store's snapshot", path: path + ".snapshot")) }
    }

    /// An input file of the command, named by its option; standard input (`-`) is no file.
    mutating func input(_ path: String?, option: String) {
        guard let path, path != "-" else { return }
        guarded.append(Guarded(role: "the input \(option) \(path)", path: path))
    }

    /// Throws when `path`, the value of `option`, is one of the guarded files; standard output (nil or `-`) passes.
    /// - Throws: `CLIError` (exit status 1) naming the option, the path and the file it would destroy.
    func check(_ path: String?, option: String) throws {
        guard let path, path != "-" else { return }
        let identity = FileIdentity(path: path)
        if let hit = guarded.first(where: { FileIdentity(path: $0.path) == identity }) {
            throw CLIError("\(option) \(path) is \(hit.role): writing there would destroy it; give another output path")
        }
    }

    /// Checks every output and that no two of them are one file.
    func check(_ outputs: [(option: String, path: String?)]) throws {
        var seen = self
        for output in outputs {
            try seen.check(output.path, option: output.option)
            if let path = output.path, path != "-" { seen.guarded.append(Guarded(role: "the file \(output.option) writes", path: path)) }
        }
    }
}
