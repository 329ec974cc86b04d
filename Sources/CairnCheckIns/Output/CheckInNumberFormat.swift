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
        guard let whole = CheckInMillimetres.ceiling(meters) else {
            out.append(contentsOf: String(meters).utf8)
            return
        }
        TextEscaping.appendInteger(Int64(whole / 1000), to: &out)
        out.append(0x2E)
        let fraction = whole % 1000
        out.append(UInt8(0x30 + fraction / 100))
        out.append(UInt8(0x30 + fraction / 10 % 10))
        out.append(UInt8(0x30 + fraction % 10))
    }
}
