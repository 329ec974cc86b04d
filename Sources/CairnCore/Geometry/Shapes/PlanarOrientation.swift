/// The side of a directed line a point lies on, in the plane of longitude (x) and latitude (y), exactly for doubles:
/// the one predicate every exact shape test (`Shape.covers`, box and segment intersection) is built on.
///
/// The sign of the determinant (ax − px)(by − py) − (ay − py)(bx − px): positive when a → b → p turn
/// counterclockwise (p left of a → b), negative when clockwise, zero when the three are collinear.
///
/// Method (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates", Discrete &
/// Computational Geometry 18, 1997, `orient2d`'s stage A): the determinant in doubles, whose rounding error is at
/// most (3 + 16ε)ε (|left| + |right|) with ε = 2⁻⁵³, decides whenever it is larger than that bound (almost always).
/// Otherwise the determinant is evaluated exactly: each difference becomes an exact pair (two-sum), each product
/// of pairs four exact pairs (two-product with a fused multiply-add), and the sixteen terms are summed into a
/// nonoverlapping expansion whose largest component has the determinant's sign. Exact for every finite input
/// whose products neither overflow nor fall below 2⁻⁹⁶⁹ (coordinates in degrees closer than about 1e-145
/// apart would; such a product is then rounded).
enum PlanarOrientation {
    /// Shewchuk's `ccwerrboundA`: (3 + 16ε)ε with ε = 2⁻⁵³.
    static let errorBoundFactor = (3.0 + 16.0 * 0x1p-53) * 0x1p-53

    /// The sign (-1, 0, 1) of the orientation of p relative to the directed line a → b (see the type).
    /// - Complexity: O(1).
    @inline(__always)
    static func sign(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ px: Double, _ py: Double) -> Int {
        let left = (ax - px) * (by - py)
        let right = (ay - py) * (bx - px)
        let determinant = left - right
        // Opposite signs (or a zero) cannot cancel: the rounded difference has the true sign.
        if left > 0 {
            if right <= 0 { return determinant > 0 ? 1 : (determinant < 0 ? -1 : 0) }
        } else if left < 0 {
            if right >= 0 { return determinant > 0 ? 1 : (determinant < 0 ? -1 : 0) }
        } else {
            // A zero difference made it 0 exactly, so the determinant is −right, whose sign the rounding kept.
            return right > 0 ? -1 : (right < 0 ? 1 : 0)
        }
        let bound = errorBoundFactor * (Swift.abs(left) + Swift.abs(right))
        if determinant > bound { return 1 }
        if -determinant > bound { return -1 }
        return exactSign(ax, ay, bx, by, px, py)
    }

    /// The exact sign of the determinant, by expansion arithmetic (see the type).
    /// - Complexity: O(1) (sixteen terms).
    static func exactSign(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ px: Double, _ py: Double) -> Int {
        let (dx1, ex1) = twoDifference(ax, px), (dy1, ey1) = twoDifference(by, py)
        let (dx2, ex2) = twoDifference(bx, px), (dy2, ey2) = twoDifference(ay, py)
        // (dx1 + ex1)(dy1 + ey1) − (dy2 + ey2)(dx2 + ex2), as sixteen exact products' halves.
        var terms = ExpansionSum()
        terms.addProduct(dx1, dy1)
        terms.addProduct(dx1, ey1)
        terms.addProduct(ex1, dy1)
        terms.addProduct(ex1, ey1)
        terms.addProduct(-dy2, dx2)
        terms.addProduct(-dy2, ex2)
        terms.addProduct(-ey2, dx2)
        terms.addProduct(-ey2, ex2)
        return terms.sign
    }

    /// a − b as an exact pair (rounded difference, error), Knuth's two-sum.
    @inline(__always)
    static func twoDifference(_ a: Double, _ b: Double) -> (Double, Double) {
        let difference = a - b
        let virtualB = a - difference
        let virtualA = difference + virtualB
        return (difference, (a - virtualA) + (virtualB - b))
    }
}
