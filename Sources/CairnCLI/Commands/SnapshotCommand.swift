import ArgumentParser
import CairnCore
import CairnStore

/// `cairn snapshot`: writes the store's index to a snapshot file, or checks one.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Save the store's index to one snapshot file, or check a snapshot file with --verify.",
        discussion: """
            Query commands keep a snapshot next to the store (<db>.snapshot) and load it instead of reading every \
            feature while the store has not been written since; this command writes one explicitly. A snapshot is one \
            flat binary file with a versioned header and a checksum; a damaged or truncated file is refused.
            """
    )

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Where to write the snapshot (default: the store's path + .snapshot, the file queries use).", valueName: "file"))
    var out: String?

    @Option(help: ArgumentHelp("Check this snapshot file (header, checksum, every section) instead of writing one.", valueName: "file"))
    var verify: String?

    func validate() throws {
        if verify != nil, out != nil { throw ValidationError("give either --out (write a snapshot) or --verify FILE (check one), not both") }
        // A snapshot is read back whole from its file (later mapped), which gzip would defeat: refuse rather than
        // write plain bytes under a .gz name.
        if let out, out.lowercased().hasSuffix(".gz") {
            throw ValidationError("--out \(out): a snapshot is not written compressed (queries read it as it is); drop the .gz")
        }
    }

    func run() throws {
        if let verify { try check(verify) } else { try write() }
    }

    private func write() throws {
        var guarded = OutputPathCheck()
        guarded.store(store.path, includingSnapshot: false)
        try guarded.check(out, option: "--out")
        let clock = ContinuousClock()
        let storeIndex = StoreIndex(store: try store.open(create: false))
        let path = out ?? storeIndex.snapshotPath
        let start = clock.now
        let stamp = try storeIndex.stamp()
        // Streamed from the store's rows, as a query's first load does: the features are never all held at once.
        let written: (byteCount: Int, featureCount: Int)
        do {
            written = try storeIndex.writeSnapshot(to: path, metadata: stamp)
        } catch let error as StoreError {
            throw error
        } catch {
            throw CLIError("\(error)")
        }
        let size = written.byteCount
        print("wrote \(path): \(Terminal.bytes(Int64(size))) (\(Terminal.grouped(size)) bytes), \(Terminal.grouped(written.featureCount)) features, "
              + "store generation \(stamp[StoreIndex.generationKey] ?? "?")")
        print("read the store, indexed it and wrote the snapshot in \(clock.now - start)")
    }

    private func check(_ path: String) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let file: SnapshotFile
        let index: FeatureIndex
        do {
            file = try SnapshotFile(contentsOf: path)
            index = try FeatureIndex(snapshot: file)
        } catch {
            throw CLIError("\(error)")
        }
        let loaded = clock.now
        print("\(path): ok: snapshot version \(file.version), \(Terminal.bytes(Int64(file.byteCount))) (\(Terminal.grouped(file.byteCount)) bytes), "
              + "\(Terminal.grouped(index.count)) features, store generation \(file.metadata[StoreIndex.generationKey] ?? "none")")
        print("read, checked and loaded in \(loaded - start)")
    }
}
