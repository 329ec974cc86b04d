import CairnCore
import CairnIO

/// Writing numbers and ids into output bytes.
enum CheckInNumberFormat {
    /// Appends a non-negative distance rounded up to the millimetre, with three decimals (`1234.568`).
    /// Rounding up keeps a printed `outside_radius` distance above the radius.
    /// - Complexity: O(digits).
    @inline(__always)
    static func appendMillimetresUp(_ meters: Double, to out: inout [UInt8]) {
        let millimetres = (meters * 1000).rounded(.up)
        guard millimetres.isFinite, millimetres >= 0, millimetres < 9e18 else {
            out.append(contentsOf: String(meters).utf8)
            return
        }
        var whole = UInt64(millimetres)
        // Rounding the product may land a hair below the exact value's ceiling; never print less than `meters`.
        if Double(whole) / 1000 < meters { whole += 1 }
        appendInteger(whole / 1000, to: &out)
        out.append(0x2E)
        let fraction = whole % 1000
        out.append(UInt8(0x30 + fraction / 100))
        out.append(UInt8(0x30 + fraction / 10 % 10))
        out.append(UInt8(0x30 + fraction % 10))
    }

    /// Appends an unsigned integer in decimal.
    @inline(__always)
    static func appendInteger(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(0x30 + value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { d in
            while v > 0 {
                d[n] = UInt8(0x30 + v % 10)
                v /= 10
                n += 1
            }
            while n > 0 {
                n -= 1
                out.append(d[n])
            }
        }
    }

    /// A number as text: integers without a fraction, others in Swift's shortest round-trip form.
    static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
