import CairnCore
import CairnIO

/// The check-ins' one number rule of their own: distances rounded up to the millimetre. Whole numbers and radii use
/// CairnIO's number rule (`TextEscaping`); this one differs on purpose (a ceiling with exactly three decimals, not
/// the shortest round-trip text), so that a printed `outside_radius` distance is never at or below the radius.
enum CheckInNumberFormat {
    /// Appends a non-negative distance rounded up to the millimetre, with three decimals (`1234.568`).
    /// Rounding up keeps a printed `outside_radius` distance above the radius.
    /// - Complexity: O(digits).
    @inline(__always)
    static func appendMillimetresUp(_ meters: Double, to out: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let count = withUnsafeMutableBytes(of: &digits) { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            return writeMillimetresUp(meters, to: base.assumingMemoryBound(to: UInt8.self))
        }
        guard let count else {
            out.append(contentsOf: String(meters).utf8)
            return
        }
        withUnsafeBytes(of: &digits) { out.append(contentsOf: $0.prefix(count)) }
    }

    /// The most bytes `writeMillimetresUp` writes: up to 16 digits before the point (below 9e15 metres), the point
    /// and three decimals.
    static let maxMillimetresBytes = 20

    /// Writes `appendMillimetresUp`'s bytes for `meters` straight into `out` (room for `maxMillimetresBytes`);
    /// returns how many, or nil (nothing written) when the distance has no millimetre ceiling (NaN, negative or
    /// too large), which `appendMillimetresUp` prints otherwise. The one place these digits are made, so the
    /// batch writer's fast path and `appendMillimetresUp` print the same bytes.
    /// - Complexity: O(digits).
    @inline(__always)
    static func writeMillimetresUp(_ meters: Double, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard let whole = CheckInMillimetres.ceiling(meters) else { return nil }
        // Digits of the whole metres, last first, into the front of `out`, then reversed in place: no buffer.
        var metres = whole / 1000
        var n = 0
        repeat {
            out[n] = UInt8(truncatingIfNeeded: 0x30 &+ metres % 10)
            metres /= 10
            n &+= 1
        } while metres > 0
        var low = 0, high = n &- 1
        while low < high {
            let byte = out[low]
            out[low] = out[high]
            out[high] = byte
            low &+= 1
            high &-= 1
        }
        let fraction = whole % 1000
        out[n] = 0x2E
        out[n &+ 1] = UInt8(truncatingIfNeeded: 0x30 &+ fraction / 100)
        out[n &+ 2] = UInt8(truncatingIfNeeded: 0x30 &+ fraction / 10 % 10)
        out[n &+ 3] = UInt8(truncatingIfNeeded: 0x30 &+ fraction % 10)
        return n &+ 4
    }
}
