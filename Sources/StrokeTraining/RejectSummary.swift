import Foundation
import StrokeKit

/// How the reject option ("none of the classes") behaved on true shapes and on non-shapes.
public struct RejectSummary: Sendable {
    /// The rule in words, e.g. "class 'none' or confidence < 0.6".
    public var rule: String
    /// The minimum confidence the rule uses (0 when it has none).
    public var threshold: Double
    /// Number of true shapes (drawings of one of the classes) evaluated.
    public var trueShapeCount: Int
    /// How many of them were wrongly rejected.
    public var trueShapesRejected: Int
    /// Number of non-shapes (scribbles, letters, ...) evaluated; nil when none were.
    public var nonShapeCount: Int?
    /// How many non-shapes were rightly rejected; nil when none were evaluated.
    public var nonShapesRejected: Int?

    public init(
        rule: String, threshold: Double, trueShapeCount: Int, trueShapesRejected: Int,
        nonShapeCount: Int? = nil, nonShapesRejected: Int? = nil
    ) {
        self.rule = rule
        self.threshold = threshold
        self.trueShapeCount = trueShapeCount
        self.trueShapesRejected = trueShapesRejected
        self.nonShapeCount = nonShapeCount
        self.nonShapesRejected = nonShapesRejected
    }

    /// The figures of `rule` on an evaluation: examples of a shape class are true shapes;
    /// examples of a background class, plus every prediction of `nonShapes` (drawings kept
    /// aside, e.g. held-out synthetic non-shapes), are non-shapes. Nil when the model has
    /// no reject option.
    public init?(rule: RejectRule, evaluation: Evaluation, nonShapes: Evaluation? = nil) {
        guard !rule.backgroundClasses.isEmpty || rule.minimumConfidence != nil else { return nil }
        let shapes = evaluation.predictions.filter { !rule.backgroundClasses.contains($0.trueClass) }
        let background = evaluation.predictions.filter { rule.backgroundClasses.contains($0.trueClass) }
            + (nonShapes?.predictions ?? [])
        self.init(
            rule: rule.description(classes: evaluation.classes), threshold: Double(rule.minimumConfidence ?? 0),
            trueShapeCount: shapes.count, trueShapesRejected: shapes.filter(\.isRejected).count,
            nonShapeCount: background.isEmpty ? nil : background.count,
            nonShapesRejected: background.isEmpty ? nil : background.filter(\.isRejected).count)
    }

    /// Fraction of true shapes rejected (lower is better); nil without true shapes.
    public var trueShapeRejectionRate: Double? {
        trueShapeCount == 0 ? nil : Double(trueShapesRejected) / Double(trueShapeCount)
    }

    /// Fraction of non-shapes rejected (higher is better); nil without non-shapes.
    public var nonShapeRejectionRate: Double? {
        guard let nonShapeCount, let nonShapesRejected, nonShapeCount > 0 else { return nil }
        return Double(nonShapesRejected) / Double(nonShapeCount)
    }

    /// The figures as terminal lines.
    public var text: String {
        var lines = ["reject option (\(rule)): \(trueShapesRejected)/\(trueShapeCount) shapes rejected "
                     + "(\(percent(trueShapeRejectionRate ?? 0)), lower is better)"]
        if let nonShapeCount, let nonShapesRejected {
            lines.append("  non-shapes rejected: \(nonShapesRejected)/\(nonShapeCount) "
                         + "(\(percent(nonShapeRejectionRate ?? 0)), higher is better)")
        }
        return lines.joined(separator: "\n")
    }

    /// The figures as a JSON object (every key present; null where not evaluated).
    public var jsonObject: [String: Any] {
        var object: [String: Any] = ["rule": rule, "true_shapes": trueShapeCount, "true_shapes_rejected": trueShapesRejected]
        object["non_shapes"] = nonShapeCount ?? NSNull()
        object["non_shapes_rejected"] = nonShapesRejected ?? NSNull()
        return object
    }
}
