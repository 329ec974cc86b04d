import CairnCore

/// Writes the attributes of one feature after another as JSON members in name order, without sorting, hashing or
/// escaping names per feature and without allocating per feature.
///
/// The decision: order in the encoder, with buffers reused across a document's rows, and reuse the last sorted order
/// (and its escaped names) while the features keep the same names. Features of one store nearly always share their
/// attribute names (every GeoNames place has the same five), so a row costs one pass over its dictionary with cheap
/// `String` equality checks (identical small strings compare as two words) instead of `keys.sorted()`'s array, its
/// O(a log a) ordered comparisons, a hashed lookup per name and an escape per name. Keeping the order in `Feature`
/// instead would cost every feature an array of names in memory (tens of MB for a few hundred thousand places) and a
/// sort at every decode of a mapped snapshot, wanted or not.
struct AttributeOrder {
    /// The names of the last feature whose names were sorted, in name order.
    private var names: [String] = []
    /// Each of `names` as the text that opens its JSON member, `,"name":`, one after another.
    private var members: [UInt8] = []
    /// Where each name's member text ends in `members`.
    private var memberEnds: [Int] = []
    /// Where each attribute of the current feature sits in its dictionary, in name order.
    private var slots: [Dictionary<String, AttributeValue>.Index] = []

    /// Above this many attributes the reuse check (O(a²) equality checks) gives way to a sort.
    private static let reuseLimit = 16

    /// Appends `,"name":value` for each attribute of `attributes`, in name order (`String`'s `<`, as `keys.sorted()`
    /// gives), values as `FeatureEncoding.appendJSONValue` writes them.
    /// - Complexity: O(a²) cheap equality checks when `attributes` has the previous sorted feature's names (a <= 16),
    ///   else O(a log a) comparisons; no allocation once the buffers have grown to the largest feature's size.
    mutating func appendJSONMembers(of attributes: [String: AttributeValue], to out: inout [UInt8]) {
        let count = attributes.count
        if count == 0 { return }
        if count == 1, let only = attributes.first { // nothing to order
            out.append(UInt8(ascii: ","))
            TextEscaping.appendJSONString(only.key, to: &out)
            out.append(UInt8(ascii: ":"))
            return FeatureEncoding.appendJSONValue(only.value, to: &out)
        }
        if !(count == names.count && count <= Self.reuseLimit && placeByPreviousNames(attributes)) { sortNames(of: attributes) }
        members.withUnsafeBufferPointer { members in
            var start = 0
            for (slot, end) in zip(slots, memberEnds) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: members[start..<end]))
                FeatureEncoding.appendJSONValue(attributes.values[slot], to: &out)
                start = end
            }
        }
    }

    /// Fills `slots` from the previous names when `attributes` holds exactly those names (same count, every key among
    /// them, keys distinct: so each name is matched once); false otherwise, with `slots` to be refilled.
    private mutating func placeByPreviousNames(_ attributes: [String: AttributeValue]) -> Bool {
        if slots.count != names.count { // the last feature had these names too: its slots are overwritten in place
            slots.removeAll(keepingCapacity: true)
            slots.append(contentsOf: repeatElement(attributes.startIndex, count: names.count))
        }
        var index = attributes.startIndex
        while index != attributes.endIndex {
            guard let position = names.firstIndex(of: attributes.keys[index]) else { return false }
            slots[position] = index
            attributes.formIndex(after: &index)
        }
        return true
    }

    /// Sorts the dictionary's positions by name into `slots`, and keeps the names and their member texts for the
    /// next feature.
    private mutating func sortNames(of attributes: [String: AttributeValue]) {
        slots.removeAll(keepingCapacity: true)
        slots.append(contentsOf: attributes.indices)
        slots.sort { attributes.keys[$0] < attributes.keys[$1] }
        names.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        memberEnds.removeAll(keepingCapacity: true)
        for slot in slots {
            let name = attributes.keys[slot]
            names.append(name)
            members.append(UInt8(ascii: ","))
            TextEscaping.appendJSONString(name, to: &members)
            members.append(UInt8(ascii: ":"))
            memberEnds.append(members.count)
        }
    }
}
