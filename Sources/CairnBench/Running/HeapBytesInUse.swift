#if canImport(Glibc) && canImport(CoreFoundation)
// On Linux, swift-corelibs-foundation's CoreFoundation module exports glibc's <malloc.h> (mallinfo2), which
// the Glibc module does not.
import CoreFoundation
#endif

/// Bytes the C heap holds for the process right now: glibc's `mallinfo2`, arena chunks in use
/// (`uordblks`) plus mmapped blocks (`hblkhd`); nil where glibc is not the allocator. Differences around a
/// build give the memory an engine keeps (Swift allocates through malloc too).
/// - Complexity: O(number of malloc arenas and bins).
func heapBytesInUse() -> Int? {
    #if canImport(Glibc) && canImport(CoreFoundation)
    // mallinfo2 (glibc 2.33+) returns its counters by value and cannot fail.
    let info = mallinfo2()
    return Int(info.uordblks) + Int(info.hblkhd)
    #else
    return nil
    #endif
}
