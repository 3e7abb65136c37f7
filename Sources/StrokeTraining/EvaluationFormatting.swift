import Foundation

extension Evaluation {
    /// The evaluation as an aligned terminal report: accuracy, per-class precision,
    /// recall, F1 and support, and the confusion matrix (rows = true, columns = predicted).
    public func textReport() -> String {
        var lines: [String] = []
        let correct = predictions.lazy.filter(\.isCorrect).count
        lines.append("accuracy: \(percent(accuracy)) (\(correct)/\(count))")
        lines.append("")
        let labelWidth = max(5, classes.map(\.count).max() ?? 0)
        lines.append(pad("class", labelWidth) + "  precision  recall      f1  support")
        for metrics in perClass {
            lines.append(pad(metrics.label, labelWidth)
                         + "  " + leftPad(percent(metrics.precision), 9)
                         + "  " + leftPad(percent(metrics.recall), 6)
                         + "  " + leftPad(percent(metrics.f1), 6)
                         + "  " + leftPad(String(metrics.support), 7))
        }
        lines.append("")
        lines.append("confusion matrix (rows = true class, columns = predicted):")
        let cellWidth = max(6, classes.map(\.count).max() ?? 0, String(count).count)
        lines.append(pad("", labelWidth) + classes.map { "  " + leftPad($0, cellWidth) }.joined())
        for (index, row) in confusionMatrix.enumerated() {
            lines.append(pad(classes[index], labelWidth) + row.map { "  " + leftPad(String($0), cellWidth) }.joined())
        }
        return lines.joined(separator: "\n")
    }

    /// The evaluation as a JSON-ready dictionary with keys `classes`, `count`, `accuracy`,
    /// `per_class`, `confusion_matrix` and `misclassified` (source, true and predicted
    /// label, confidence).
    public func jsonObject() -> [String: Any] {
        [
            "classes": classes,
            "count": count,
            "accuracy": accuracy,
            "per_class": perClass.map { metrics -> [String: Any] in
                ["label": metrics.label, "precision": metrics.precision, "recall": metrics.recall,
                 "f1": metrics.f1, "support": metrics.support]
            },
            "confusion_matrix": confusionMatrix,
            "misclassified": misclassified.map { prediction -> [String: Any] in
                ["file": prediction.source, "true": classes[prediction.trueClass],
                 "predicted": classes[prediction.predictedClass], "confidence": Double(prediction.confidence)]
            },
        ]
    }
}

/// "97.3%" with one decimal.
public func percent(_ fraction: Double) -> String {
    String(format: "%.1f%%", fraction * 100)
}

private func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

private func leftPad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}
