/// A dense Float32 tensor: a shape and its values in row-major order.
///
/// The network keeps its activations as `Tensor`s, allocated when the batch shape changes,
/// and layers write into them through `withUnsafeMutableBufferPointer`, so a training step
/// allocates nothing once the batch shape is known.
public struct Tensor: Sendable, Equatable {
    /// Extent of each dimension, outermost first (e.g. `[N, C, H, W]`).
    public private(set) var shape: [Int]
    /// The values, row-major; `values.count == shape.reduce(1, *)`.
    public var values: [Float]

    /// A tensor of `shape` filled with `value`.
    public init(shape: [Int], repeating value: Float = 0) {
        precondition(shape.allSatisfy { $0 >= 0 }, "Tensor shape \(shape) has a negative dimension")
        self.shape = shape
        self.values = [Float](repeating: value, count: shape.reduce(1, *))
    }

    /// A tensor of `shape` holding `values` (row-major).
    public init(shape: [Int], values: [Float]) {
        precondition(
            values.count == shape.reduce(1, *),
            "Tensor shape \(shape) needs \(shape.reduce(1, *)) values, got \(values.count)")
        self.shape = shape
        self.values = values
    }

    /// Number of elements.
    public var count: Int { values.count }

    /// The same values seen with another shape of equal element count.
    public func reshaped(_ newShape: [Int]) -> Tensor {
        Tensor(shape: newShape, values: values)
    }

    /// Sets every element to zero without reallocating.
    public mutating func zero() {
        values.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }
}
