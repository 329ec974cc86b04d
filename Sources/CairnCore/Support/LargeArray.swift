#if canImport(Glibc)
import Glibc
#endif

/// A filled array for a large hash table, asking the kernel for transparent huge pages first (Linux).
///
/// The tables behind check-in validation (ids, (user, event) pairs) are tens to hundreds of megabytes read at
/// random: with 4 KB pages nearly every probe also misses the TLB. The buffer is obtained uninitialised,
/// advised `MADV_HUGEPAGE` (2 MB pages where the kernel allows), and only then filled, so that the first touch
/// already gets huge pages. Elsewhere, or for small tables, it is an ordinary filled array.
/// - Complexity: O(n).
func largeArray<Element: BitwiseCopyable>(repeating value: Element, count: Int) -> ContiguousArray<Element> {
    ContiguousArray(unsafeUninitializedCapacity: count) { buffer, initialized in
        adviseHugePages(buffer)
        if let base = buffer.baseAddress { base.initialize(repeating: value, count: count) }
        initialized = count
    }
}

/// A copy of `array` in memory advised as `largeArray`'s (the array itself when it is small), for
/// tables built by appending and then read at random.
/// - Complexity: O(n).
package func largeArray<Element: BitwiseCopyable>(copying array: ContiguousArray<Element>) -> ContiguousArray<Element> {
    guard array.count * MemoryLayout<Element>.stride >= 2 * (2 << 20) else { return array }
    return ContiguousArray(unsafeUninitializedCapacity: array.count) { buffer, initialized in
        adviseHugePages(buffer)
        array.withUnsafeBufferPointer { source in
            if let base = buffer.baseAddress, let from = source.baseAddress { base.initialize(from: from, count: source.count) }
        }
        initialized = array.count
    }
}

/// Advises the whole 2 MB pages inside `buffer` as `MADV_HUGEPAGE` (Linux only; small buffers are left alone).
private func adviseHugePages<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
    #if os(Linux)
    let count = buffer.count
    let bytes = count * MemoryLayout<Element>.stride
    let hugePage = 2 << 20
    if bytes >= 2 * hugePage, let base = buffer.baseAddress {
        let start = (Int(bitPattern: base) + hugePage - 1) / hugePage * hugePage
        let end = (Int(bitPattern: base) + bytes) / hugePage * hugePage
        if end > start, let region = UnsafeMutableRawPointer(bitPattern: start) {
            // madvise returns 0, or -1 with errno (e.g. EINVAL without THP support): only advice, ignored.
            _ = madvise(region, end - start, Int32(MADV_HUGEPAGE))
        }
    }
    #endif
}
