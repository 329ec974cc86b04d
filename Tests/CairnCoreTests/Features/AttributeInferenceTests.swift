import CairnCore
import CairnTestSupport
import Testing

/// `AttributeValue.inferred(from:)` (a one-pass scan with a fast path for short decimals) against the rule it
/// replaced, kept here as the oracle: the same value, bit for bit, on every cell of the CSV files in `Data/` and on
/// seeded odd cells.
@Suite struct AttributeInferenceTests {
    /// The inference as it was before the fast path (main at bd9397e), the oracle.
    static func reference(_ text: String) -> AttributeValue? {
        if text.isEmpty { return nil }
        switch text {
        case "true", "TRUE", "True": return .bool(true)
        case "false", "FALSE", "False": return .bool(false)
        default: break
        }
        if referenceLooksLikePlainNumber(text), let value = Double(text), value.isFinite { return .number(value) }
        if let first = text.utf8.first, first >= 48, first <= 57, let time = Timestamp(iso8601: text) { return .time(time) }
        return .string(text)
    }

    private static func referenceLooksLikePlainNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if bytes.first == 45 { bytes = bytes.dropFirst() }
        guard let first = bytes.first, first >= 48, first <= 57 else { return false }
        if first == 48, bytes.count > 1, let second = bytes.dropFirst().first, second >= 48, second <= 57 { return false }
        var seenDot = false, seenExponent = false
        var previous: UInt8 = 0
        for c in bytes {
            switch c {
            case 48...57: break
            case 46 where !seenDot && !seenExponent: seenDot = true
            case 101, 69:
                if seenExponent { return false }
                seenExponent = true
            case 43 where previous == 101 || previous == 69, 45 where previous == 101 || previous == 69: break
            default: return false
            }
            previous = c
        }
        return previous >= 48 && previous <= 57
    }

    /// Equal as values, and numbers equal bit for bit (so `-0` stays `-0`).
    static func same(_ a: AttributeValue?, _ b: AttributeValue?) -> Bool {
        if case .number(let x)? = a, case .number(let y)? = b { return x.bitPattern == y.bitPattern }
        return a == b
    }

    /// Every cell of the committed CSV files (split at commas, quotes and line ends, so the pieces of quoted
    /// fields are cells too).
    static func repositoryCells() throws -> [String] {
        var cells: [String] = []
        for file in ["Data/geonames-cities500.csv.gz", "Data/airports.csv.gz", "Data/osm-helsinki-poi.csv"] {
            let bytes = try RepositoryData.bytes(file)
            for cell in bytes.split(omittingEmptySubsequences: false, whereSeparator: { $0 == 44 || $0 == 10 || $0 == 13 || $0 == 34 }) {
                cells.append(String(decoding: cell, as: UTF8.self))
            }
        }
        return cells
    }

    @Test func everyCellOfTheRepositoryFilesIsTypedAsBefore() throws {
        let cells = try Self.repositoryCells()
        #expect(cells.count > 1_500_000)
        var numbers = 0, mismatches: [String] = []
        for cell in cells {
            let new = AttributeValue.inferred(from: cell), old = Self.reference(cell)
            if case .number? = new { numbers += 1 }
            if !Self.same(new, old), mismatches.count < 10 { mismatches.append(cell) }
        }
        #expect(mismatches.isEmpty, "typed differently: \(mismatches)")
        #expect(numbers > 500_000)
    }

    @Test(arguments: [
        "0", "-0", "-0.0", "0.0", "00", "-00", "08", "-08", "0.5", "-.5", ".5", "5.", "-", "--1", "1-", "1e", "1e+",
        "1e5", "1E-5", "1e+5", "-1.5e-3", "1.e5", "1e5.5", "1.2.3", "1..2", "+1", " 1", "1 ", "1_000", "0x10", "inf",
        "-inf", "nan", "NaN", "1e400", "-1e400", "1e-400", "9007199254740992", "9007199254740993", "9007199254740991.5",
        "1234567890123456789", "12345678901234567890", "123456789012345678901234", "0.1", "0.2", "0.3",
        "0.30000000000000004", "3.141592653589793", "2.718281828459045235360287", "1.0000000000000000000001",
        "0.0000000000000000000001", "0.00000000000000000000001", "4.9e-324", "1.7976931348623157e308", "2026-06-01",
        "2026-06-01T10:00:00Z", "20260601", "true", "True", "TRUE", "tRUE", "truE", "t", "false", "False", "FALSE",
        "f", "fa", "falsey", "truer", "Asia/Tehran", "é", "-é", "1é", "9", "-9", "99.99", "-99.990",
    ])
    func oddCellsAreTypedAsBefore(_ cell: String) {
        #expect(Self.same(AttributeValue.inferred(from: cell), Self.reference(cell)), "\(cell)")
    }

    /// Seeded random decimals of every length and scale near the fast path's limits, and random strings over the
    /// characters a number is made of.
    @Test func seededDecimalsAreTypedAsBefore() {
        var random = SplitMix64(seed: 20)
        let alphabet = Array("0123456789.-+eE".utf8)
        var mismatches: [String] = []
        for round in 0..<400_000 {
            var text = ""
            if round % 2 == 0 {
                // A decimal: sign, 1-24 digits, a point somewhere (or none).
                let digits = 1 + Int(random.next() % 24)
                var body = (0..<digits).map { _ in String(random.next() % 10) }.joined()
                if body.count > 1, body.first == "0", random.next() % 2 == 0 { body.removeFirst() ; body = "1" + body }
                if random.next() % 4 != 0 {
                    let at = 1 + Int(random.next() % UInt64(max(body.count, 1)))
                    body.insert(".", at: body.index(body.startIndex, offsetBy: min(at, body.count)))
                }
                text = (random.next() % 3 == 0 ? "-" : "") + body
            } else {
                let length = 1 + Int(random.next() % 8)
                text = String(decoding: (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }, as: UTF8.self)
            }
            if !Self.same(AttributeValue.inferred(from: text), Self.reference(text)), mismatches.count < 10 { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "typed differently: \(mismatches)")
    }
}
