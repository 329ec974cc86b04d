/// Ids read for check-ins' reference data, kept as bytes in one arena with each id's `byteHash`, so that a file's
/// ids are hashed on the thread that parsed them and interned (`KeyTable`) without a `String` or an allocation each.
///
/// Id `i` is `bytes[ends[i - 1] ..< ends[i]]` (`ends[-1]` read as 0).
///
/// Appending is `@inlinable`: the loaders in CairnCheckIns append a million ids per file, and a call across the
/// module boundary per id cost more than the copy (so the arrays' setters are package-wide, not private).
package struct CheckInIdList: Sendable {
    /// Every id's bytes, back to back.
    package var bytes = ContiguousArray<UInt8>()
    /// The end of each id in `bytes`.
    package var ends = ContiguousArray<Int>()
    /// Each id's `byteHash`.
    package var hashes = ContiguousArray<UInt64>()

    /// No ids.
    /// - Complexity: O(1).
    package init() {}

    /// The number of ids.
    /// - Complexity: O(1).
    package var count: Int { ends.count }

    /// Reserves room for `count` more ids of about `bytesEach` bytes.
    /// - Complexity: O(n) in the ids held.
    package mutating func reserveCapacity(_ count: Int, bytesEach: Int) {
        ends.reserveCapacity(ends.count + count)
        hashes.reserveCapacity(hashes.count + count)
        bytes.reserveCapacity(bytes.count + count * bytesEach)
    }

    /// Appends an id given as bytes (hashed here).
    /// - Complexity: O(n) in its length, amortised.
    @inlinable @inline(__always)
    package mutating func append(_ id: UnsafeRawBufferPointer) {
        // As typed bytes: the array then copies them with `memcpy`, not byte by byte through the raw sequence.
        bytes.append(contentsOf: id.assumingMemoryBound(to: UInt8.self))
        ends.append(bytes.count)
        hashes.append(byteHash(id))
    }

    /// Appends an id given as a string.
    /// - Complexity: O(n) in its length, amortised.
    package mutating func append(_ id: String) {
        var id = id
        id.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends every id of `other`, in order (their hashes kept).
    /// - Complexity: O(n) in `other`'s ids and bytes.
    package mutating func append(contentsOf other: CheckInIdList) {
        let offset = bytes.count
        bytes.append(contentsOf: other.bytes)
        ends.reserveCapacity(ends.count + other.ends.count)
        for end in other.ends { ends.append(offset + end) }
        hashes.append(contentsOf: other.hashes)
    }

    /// Calls `body` with id `index`'s bytes and hash.
    /// - Complexity: O(1) plus the body.
    @inline(__always)
    package func withId<R>(_ index: Int, _ body: (UnsafeRawBufferPointer, UInt64) -> R) -> R {
        let start = index == 0 ? 0 : ends[index - 1], end = ends[index]
        return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start ..< end]), hashes[index]) }
    }

    /// Id `index` as a string.
    /// - Complexity: O(n) in its length.
    package func string(at index: Int) -> String {
        withId(index) { id, _ in String(decoding: id, as: UTF8.self) }
    }
}
