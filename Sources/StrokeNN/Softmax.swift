#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Class probabilities from logits: the one softmax of StrokeKit, used by the classifier,
/// the evaluator and the training loss alike, so they cannot disagree.
public enum Softmax {
    /// Replaces one row of logits by its probabilities, in place.
    // NOTE: subtracting the largest logit keeps expf from overflowing; the result is unchanged.
    @inlinable
    public static func apply(_ row: UnsafeMutableBufferPointer<Float>) {
        guard var largest = row.first else { return }
        for value in row where value > largest { largest = value }
        var sum: Float = 0
        for index in row.indices {
            let value = expf(row[index] - largest)
            row[index] = value
            sum += value
        }
        for index in row.indices { row[index] /= sum }
    }

    /// Writes the probabilities of `logits` into `probabilities` (same count).
    @inlinable
    public static func probabilities(of logits: UnsafeBufferPointer<Float>, into probabilities: UnsafeMutableBufferPointer<Float>) {
        precondition(logits.count == probabilities.count, "softmax of \(logits.count) logits into \(probabilities.count) probabilities")
        for index in logits.indices { probabilities[index] = logits[index] }
        apply(probabilities)
    }
}
