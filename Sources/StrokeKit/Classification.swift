import StrokeImage

/// What the classifier says about one drawing.
public struct Classification: Sendable, Hashable, Codable {
    /// The most probable class label (also set when the drawing was rejected).
    public var label: String
    /// Probability of `label`, in 0...1.
    public var confidence: Float
    /// Probability of every class, in the model's class order.
    public var probabilities: [String: Float]
    /// True when the drawing looks like none of the classes (the reject option).
    public var isRejected: Bool

    public init(label: String, confidence: Float, probabilities: [String: Float], isRejected: Bool) {
        self.label = label
        self.confidence = confidence
        self.probabilities = probabilities
        self.isRejected = isRejected
    }
}

/// Anything that turns strokes into classifications. The CNN classifier conforms;
/// tests of code built on top (the automata editor) may supply their own.
public protocol StrokeClassifying: Sendable {
    /// Classifies a drawing made of one or more strokes.
    func classify(_ strokes: [Stroke]) throws -> Classification
}

extension StrokeClassifying {
    /// Classifies a single stroke.
    public func classify(_ stroke: Stroke) throws -> Classification {
        try classify([stroke])
    }
}

extension Classification {
    /// The most probable of `labels` and its probability (among all classes), or nil when the
    /// model has none of them. A reader that knows what kind of character it expects (a digit
    /// in a diagram whose alphabet is digits, a lowercase letter) decides within that kind:
    /// the label model's images do not show size, so `0` / `o` / `O` and `c` / `C` are told
    /// apart by context, not by shape (docs/label-model.md).
    public func mostProbable(among labels: some Sequence<String>) -> (label: String, probability: Float)? {
        var best: (label: String, probability: Float)?
        for label in labels {
            guard let probability = probabilities[label] else { continue }
            if best == nil || probability > best!.probability
                || (probability == best!.probability && label < best!.label) {
                best = (label, probability)
            }
        }
        return best
    }
}
