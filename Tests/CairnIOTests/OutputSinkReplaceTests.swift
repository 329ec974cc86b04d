import CairnTestSupport
import Foundation
@testable import CairnIO
import Testing

/// Issue #15 item 3: an output file is written under a temporary name and renamed into place on success, so a
/// failed or abandoned run leaves the old file whole and no half-written or temporary file behind.
@Suite struct OutputSinkReplaceTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
    func leftovers() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") } }

    @Test(arguments: ["out.csv", "out.csv.gz"])
    func anUnclosedSinkLeavesTheOldFileWhole(name: String) throws {
        let path = try folder.write(name, "old\n")
        do {
            let sink = try OutputSink(path: path)
            sink.write(String(repeating: "new row\n", count: 20_000)) // past the buffer: bytes reach the disk
            #expect(try text(path) == "old\n", "the file changed before close()")
        } // dropped without close(): a failed run
        #expect(try text(path) == "old\n")
        #expect(try leftovers().isEmpty)
    }

    @Test func closeReplacesTheFileAndKeepsItsPermissions() throws {
        let path = try folder.write("out.csv", "old\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let sink = try OutputSink(path: path)
        sink.write("new\n")
        try sink.close()
        #expect(try text(path) == "new\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try leftovers().isEmpty)
    }

    @Test func aSymbolicLinkKeepsPointingAtTheReplacedFile() throws {
        let target = try folder.write("target.csv", "old\n")
        let link = folder.path("link.csv")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let sink = try OutputSink(path: link)
        sink.write("new\n")
        try sink.close()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try text(target) == "new\n")
    }

    @Test func aReadOnlyFileIsRefusedAsBefore() throws {
        guard getuid() != 0 else { return } // root may write anything
        let path = try folder.write("ro.csv", "old\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        #expect(throws: InputError.self) { try OutputSink(path: path) }
        #expect(try text(path) == "old\n")
    }

    @Test func aDeviceIsWrittenInPlace() throws {
        let sink = try OutputSink(path: "/dev/null")
        sink.write("x\n")
        try sink.close()
        #expect(FileIdentity(path: "/dev/null") == FileIdentity(path: "/dev/./null"))
    }

    @Test func identityFollowsSpellingsAndLinks() throws {
        let path = try folder.write("a.csv", "a\n")
        try FileManager.default.createSymbolicLink(atPath: folder.path("s.csv"), withDestinationPath: path)
        try FileManager.default.linkItem(atPath: path, toPath: folder.path("h.csv"))
        for other in [folder.path + "/./a.csv", folder.path("s.csv"), folder.path("h.csv")] {
            #expect(FileIdentity(path: other) == FileIdentity(path: path), "\(other)")
        }
        #expect(FileIdentity(path: folder.path("b.csv")) != FileIdentity(path: path))
        // Names not made yet compare by folder and name.
        #expect(FileIdentity(path: folder.path + "/./new.csv") == FileIdentity(path: folder.path("new.csv")))
        #expect(FileIdentity(path: folder.path("new.csv")) != FileIdentity(path: folder.path("new2.csv")))
    }
}

extension OutputSinkReplaceTests {
    /// A run killed with `kill -9` leaves its temporary file; the next output to that path removes it, and leaves
    /// a running process's alone.
    @Test func theTemporaryFileOfAKilledRunIsRemovedByTheNext() throws {
        var gone: Int32 = 4_000_000
        while kill(gone, 0) == 0 || errno != ESRCH { gone -= 1 }
        let stale = try folder.write("out.csv.tmp-\(gone)-12345", "half")
        let live = try folder.write("out.csv.tmp-\(getppid())-6789", "being written")
        let other = try folder.write("other.csv.tmp-\(gone)-1", "another file's")
        let sink = try OutputSink(path: folder.path("out.csv"))
        sink.write("new\n")
        try sink.close()
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live) && FileManager.default.fileExists(atPath: other))
        #expect(try text(folder.path("out.csv")) == "new\n")
    }
}
