import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Bytes the C heap holds for the process right now, from glibc's `malloc_info` report: memory the arenas
/// took from the system, less their free chunks, plus mmapped blocks. Nil where glibc is not the allocator.
/// Differences around a build give the memory an engine keeps (Swift allocates through malloc too).
/// - Complexity: O(number of malloc arenas and bins).
func heapBytesInUse() -> Int? {
    #if canImport(Glibc)
    // malloc_info(options, stream) writes an XML report and returns 0 (-1 on error). It is declared in
    // <malloc.h>, which the Glibc module does not import, so it is looked up by name; mallinfo2 returns its
    // struct by value, which a looked-up symbol cannot be called for from Swift.
    typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
    guard let symbol = dlsym(nil, "malloc_info") else { return nil }
    let mallocInfo = unsafeBitCast(symbol, to: MallocInfo.self)
    var buffer: UnsafeMutablePointer<CChar>?
    var size = 0
    // open_memstream returns a stream writing into a malloc'ed buffer (ours to free after fclose), or NULL.
    guard let stream = open_memstream(&buffer, &size) else { return nil }
    let status = mallocInfo(0, stream)
    fclose(stream)
    defer { free(buffer) }
    guard status == 0, let buffer else { return nil }
    var report = String(cString: buffer)[...]
    // The process-wide totals follow the last per-arena <heap> section.
    if let lastHeap = report.range(of: "</heap>", options: .backwards) { report = report[lastHeap.upperBound...] }
    func value(_ element: String, _ type: String) -> Int {
        guard let start = report.range(of: "<\(element) type=\"\(type)\"") else { return 0 }
        let rest = report[start.upperBound...]
        guard let sizeStart = rest.range(of: "size=\""),
              let sizeEnd = rest[sizeStart.upperBound...].firstIndex(of: "\"") else { return 0 }
        return Int(rest[sizeStart.upperBound..<sizeEnd]) ?? 0
    }
    return value("system", "current") - value("total", "fast") - value("total", "rest") + value("total", "mmap")
    #else
    return nil
    #endif
}
