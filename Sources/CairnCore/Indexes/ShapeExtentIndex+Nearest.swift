extension ShapeExtentIndex {
    /// The parts (leaves) in ascending order of a proven lower bound on the geodesic distance from `point` to
    /// anything inside their extent (`ShapeBoundaryDistance.lowerBoundMeters(from:to:)`), for the distance queries
    /// on shapes: `within` stops at the first part whose bound exceeds its radius, nearest-k at the first whose bound
    /// exceeds its k-th exact distance.
    /// - Complexity: O(1) to start; see `PartsByDistance.next()`.
    func partsByDistance(from point: Coordinate) -> PartsByDistance {
        PartsByDistance(index: self, point: point)
    }

    /// A best-first walk of a `ShapeExtentIndex` from a point (Hjaltason and Samet's incremental nearest neighbour,
    /// "Distance browsing in spatial databases", TODS 1999): a min-queue of nodes keyed by the lower bound of
    /// their box; a popped leaf is the next part. A node's key is at least its parent's (a child's box lies in the
    /// parent's, and the key is raised to the parent's against rounding), so parts come out in ascending bound.
    struct PartsByDistance: IteratorProtocol {
        /// A node waiting in the queue: its bound in metres, its position and its level (0: a leaf).
        private struct Pending {
            var boundMeters: Double
            var node: Int
            var level: Int
        }

        private let index: ShapeExtentIndex
        private let point: Coordinate
        /// A binary min-heap on `boundMeters`.
        private var queue: [Pending] = []
        /// Internal nodes opened so far, for `QueryStats.nodesVisited`.
        private(set) var nodesVisited = 0

        /// A walk over `index` from `point`, starting at the root.
        /// - Complexity: O(1).
        init(index: ShapeExtentIndex, point: Coordinate) {
            self.index = index
            self.point = point
            guard !index.items.isEmpty else { return }
            let top = index.levelStarts.count - 2
            let root = index.levelStarts[top]
            queue.append(Pending(boundMeters: boundMeters(root), node: root, level: top))
        }

        /// The next part's item and the lower bound of its extent in metres, nil after the last part.
        /// - Complexity: O(log q) per queue operation for q queued nodes; a part costs its share of the nodes
        ///   opened before it (about log₁₆ p for p parts on typical data).
        mutating func next() -> (item: Int, lowerBoundMeters: Double)? {
            while let pending = pop() {
                if pending.level == 0 { return (Int(index.items[pending.node]), pending.boundMeters) }
                nodesVisited += 1
                let level = pending.level
                let childStart = index.levelStarts[level - 1]
                    + (pending.node - index.levelStarts[level]) * ShapeExtentIndex.nodeSize
                let childEnd = min(childStart + ShapeExtentIndex.nodeSize, index.levelStarts[level])
                for child in childStart..<childEnd {
                    push(Pending(boundMeters: max(pending.boundMeters, boundMeters(child)), node: child, level: level - 1))
                }
            }
            return nil
        }

        /// The lower bound from the point to node `node`'s box.
        private func boundMeters(_ node: Int) -> Double {
            let b = 4 * node
            let box = BoundingBox(unchecked: index.boxes[b], index.boxes[b + 1], index.boxes[b + 2], index.boxes[b + 3])
            return ShapeBoundaryDistance.lowerBoundMeters(from: point, to: box)
        }

        private mutating func push(_ pending: Pending) {
            queue.append(pending)
            var child = queue.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard queue[child].boundMeters < queue[parent].boundMeters else { break }
                queue.swapAt(child, parent)
                child = parent
            }
        }

        private mutating func pop() -> Pending? {
            guard let last = queue.popLast() else { return nil }
            guard !queue.isEmpty else { return last }
            let first = queue[0]
            queue[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < queue.count, queue[left].boundMeters < queue[smallest].boundMeters { smallest = left }
                if right < queue.count, queue[right].boundMeters < queue[smallest].boundMeters { smallest = right }
                guard smallest != parent else { break }
                queue.swapAt(parent, smallest)
                parent = smallest
            }
            return first
        }
    }
}
