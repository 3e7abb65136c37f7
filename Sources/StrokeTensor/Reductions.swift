/// Sum of `count` floats with eight independent SIMD accumulators: a plain `+=` loop
/// cannot be vectorised (Float addition is not associative, so the compiler keeps its order).
@inlinable
public func vectorSum(_ values: UnsafePointer<Float>, count: Int) -> Float {
    var accumulator = SIMD8<Float>(repeating: 0)
    let vectorCount = count / 8
    let raw = UnsafeRawPointer(values)
    for v in 0..<vectorCount {
        accumulator += raw.loadUnaligned(fromByteOffset: v * MemoryLayout<SIMD8<Float>>.stride, as: SIMD8<Float>.self)
    }
    var sum = accumulator.sum()
    for i in (vectorCount * 8)..<count { sum += values[i] }
    return sum
}
