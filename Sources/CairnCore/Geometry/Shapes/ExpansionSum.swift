/// A sum of doubles kept exactly as a nonoverlapping expansion (Shewchuk's Grow-Expansion): components in order of
/// increasing magnitude, zeros dropped. At most 16 products (32 components) are added by `PlanarOrientation`.
struct ExpansionSum {
    /// The components, smallest first.
    private var components: [Double] = []

    /// Adds a · b exactly (its rounded value and its error, by a fused multiply-add).
    /// - Complexity: O(m) for m components.
    mutating func addProduct(_ a: Double, _ b: Double) {
        let product = a * b
        // fma(a, b, -product) is the exact rounding error of a · b (no underflow assumed, see `PlanarOrientation`).
        let error = (-product).addingProduct(a, b)
        add(error)
        add(product)
    }

    /// Adds `value` exactly.
    /// - Complexity: O(m) for m components.
    mutating func add(_ value: Double) {
        guard value != 0 else { return }
        var carry = value
        var kept: [Double] = []
        kept.reserveCapacity(components.count + 1)
        for component in components {
            let sum = carry + component
            let virtualComponent = sum - carry
            let virtualCarry = sum - virtualComponent
            let error = (carry - virtualCarry) + (component - virtualComponent)
            if error != 0 { kept.append(error) }
            carry = sum
        }
        if carry != 0 { kept.append(carry) }
        components = kept
    }

    /// The sign (-1, 0, 1) of the exact sum: that of its largest component.
    /// - Complexity: O(1).
    var sign: Int {
        guard let largest = components.last else { return 0 }
        return largest > 0 ? 1 : -1
    }
}
