/// A test placing a stored position on one axis surely inside a query's range, surely outside, or neither.
protocol AxisTest {
    associatedtype Value
    func includes(_ v: Value) -> Bool
    func excludes(_ v: Value) -> Bool
}
