import CairnTestSupport
import Foundation
import Testing
@testable import CairnGEOS

/// libgeos_c opened at run time: not linked, and a missing library or function is a `GEOSError` that says what to
/// install, never a crash.
@Suite struct GEOSLibraryTests {
    #if os(Linux)
    @Test("The test executable (and so cairn) does not link libgeos_c")
    func libgeosIsNotLinked() throws {
        // ldd lists what the loader maps at start; a linked GEOS shows as libgeos_c.so.1 and libgeos.so. The link
        // is resolved here: given to ldd, /proc/self/exe would be ldd's own process.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let linked = try SystemCommand.text(["ldd", executable])
        #expect(linked.contains("libc.so"))
        #expect(!linked.contains("libgeos"))
    }
    #endif

    @Test("A library that cannot be opened is a GEOSError naming it and the package")
    func missingLibrary() {
        let result = GEOSLibrary.load(firstOf: ["libcairn-no-such-geos_c.so.1"])
        guard case .failure(let error) = result else {
            Issue.record("a library that does not exist opened")
            return
        }
        #expect(error.function == "dlopen")
        #expect(error.message.contains("libcairn-no-such-geos_c.so.1"))
        #expect(error.message.contains("apt install libgeos-c1v5"))
    }

    #if os(Linux)
    @Test("A library without GEOS's functions is a GEOSError naming the first missing one")
    func missingFunction() {
        // The C library opens everywhere on Linux and has none of GEOS's functions.
        guard case .failure(let error) = GEOSLibrary.load(firstOf: ["libc.so.6"]) else {
            Issue.record("libc passed for GEOS")
            return
        }
        #expect(error.function == "GEOSversion")
        #expect(error.message.contains("apt install libgeos-c1v5"))
    }
    #endif

    @Test("The library opens and reports its version")
    func opens() throws {
        _ = try GEOSLibrary.shared.get()
        #expect(GEOSContext.version.contains("CAPI"))
    }
}
