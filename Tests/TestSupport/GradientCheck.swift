import StrokeTensor
import StrokeSupport

/// Central-difference gradient checking, the tinygrad `gradcheck` idea:
/// d(loss)/dθ ≈ (loss(θ + ε) − loss(θ − ε)) / 2ε, compared with the analytic gradient
/// by relative error on a sample of coordinates.
public enum GradientCheck {
    /// One coordinate whose analytic and numeric gradients disagree.
    public struct Mismatch: CustomStringConvertible, Sendable {
        public let tensor: String
        public let index: Int
        public let analytic: Double
        public let numeric: Double
        public let tolerance: Double

        public var description: String {
            "\(tensor)[\(index)]: analytic \(analytic) vs numeric \(numeric) (tolerance \(tolerance))"
        }
    }

    /// Checks `analytic` against central differences of `loss` over `values`.
    /// `loss` must recompute the scalar from the current `values` (accumulate it in Double).
    /// Relative error |a − n| / max(|a|, |n|, floor) must stay below `tolerance`.
    public static func compare(
        name: String,
        values: inout [Float],
        analytic: [Float],
        samples: Int = 40,
        epsilon: Float = 1e-2,
        tolerance: Double = 2e-2,
        floor: Double = 1e-2,
        seed: UInt64 = 7,
        loss: ([Float]) -> Double
    ) -> [Mismatch] {
        precondition(values.count == analytic.count, "\(name): \(values.count) values vs \(analytic.count) gradients")
        var generator = SeededGenerator(seed: seed)
        let indices = values.count <= samples
            ? Array(values.indices)
            : (0..<samples).map { _ in Int(generator.next() % UInt64(values.count)) }
        var mismatches: [Mismatch] = []
        for index in indices {
            let original = values[index]
            values[index] = original + epsilon
            let plus = loss(values)
            values[index] = original - epsilon
            let minus = loss(values)
            values[index] = original
            let numeric = (plus - minus) / (2 * Double(epsilon))
            let exact = Double(analytic[index])
            let error = abs(exact - numeric) / max(abs(exact), abs(numeric), floor)
            if error > tolerance {
                mismatches.append(Mismatch(tensor: name, index: index, analytic: exact, numeric: numeric, tolerance: tolerance))
            }
        }
        return mismatches
    }

    /// sum(output · weights) in Double: a probe loss under which every output matters.
    public static func probeLoss(_ output: [Float], _ weights: [Float]) -> Double {
        var sum = 0.0
        for i in output.indices { sum += Double(output[i]) * Double(weights[i]) }
        return sum
    }

    /// Uniform random values in `range`.
    public static func randomValues(_ count: Int, in range: ClosedRange<Float> = -1...1, seed: UInt64) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in range.lowerBound + Float(generator.nextUnit()) * (range.upperBound - range.lowerBound) }
    }
}
