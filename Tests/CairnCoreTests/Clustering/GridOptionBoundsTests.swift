import CairnCore
import Testing

/// Grid clustering sizes its cell table from the viewport and cell size: absurd values are refused, not allocated.
@Suite struct GridOptionBoundsTests {
    @Test func absurdViewportsAndCellsAreRefused() throws {
        #expect(throws: GridClusteringError.self) { try GridClusterOptions(cellSizePixels: 1e-300) }
        #expect(throws: GridClusteringError.self) { try GridClusterOptions(cellSizePixels: .infinity) }
        #expect(throws: GridClusteringError.self) { try Viewport(box: .world, widthPixels: Int.max, heightPixels: 1) }
        #expect(throws: GridClusteringError.self) { try Viewport(box: .world, widthPixels: 1_000_000_000, heightPixels: 1_000_000_000) }
        #expect(throws: GridClusteringError.self) { try Viewport(box: .world, widthPixels: 0, heightPixels: 768) }
        _ = try Viewport(box: .world, widthPixels: Viewport.maxSidePixels, heightPixels: 1)
        _ = try GridClusterOptions(cellSizePixels: 1)
    }
}
