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
        if classes.count > Self.largestPrintedMatrix {
            lines.append("top-3 accuracy: \(percent(topAccuracy(3)))")
            let groups = CharacterGroups.groups(for: classes)
            if !groups.isEmpty {
                lines.append("accuracy by group (among all classes / within the group):")
                for group in groups.map(accuracy(of:)) {
                    let weakest = group.withinGroupPerClass.min { ($0.recall, $1.label) < ($1.recall, $0.label) }
                    lines.append("  \(pad(group.group, 10)) \(leftPad(percent(group.amongAllClasses), 6)) / "
                                 + "\(leftPad(percent(group.withinGroup), 6))  (\(group.support))"
                                 + (weakest.map { "; weakest class within the group: \($0.label) \(percent($0.recall))" } ?? ""))
                }
                lines.append("accuracy counting look-alikes as the same (c/C, o/O/0, l/I/1, ...): "
                             + percent(accuracy(countingAsSame: CharacterGroups.lookAlikes)))
            }
            lines.append("worst confusions (true -> predicted: count, share of the true class):")
            for cell in worstConfusions(limit: 20) {
                let share = Double(cell.count) / Double(max(1, confusionMatrix[cell.trueClass].reduce(0, +)))
                lines.append("  \(classes[cell.trueClass]) -> \(classes[cell.predictedClass]): \(cell.count), \(percent(share))")
            }
            return lines.joined(separator: "\n")
        }
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
        var object: [String: Any] = [
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
            "top3_accuracy": topAccuracy(3),
        ]
        let groups = CharacterGroups.groups(for: classes)
        if !groups.isEmpty {
            object["groups"] = groups.map(accuracy(of:)).map { group -> [String: Any] in
                ["group": group.group, "support": group.support, "among_all_classes": group.amongAllClasses,
                 "within_group": group.withinGroup,
                 "within_group_per_class": group.withinGroupPerClass.map { ["label": $0.label, "recall": $0.recall, "support": $0.support] }]
            }
            object["look_alike_accuracy"] = accuracy(countingAsSame: CharacterGroups.lookAlikes)
        }
        return object
    }

    /// Above this many classes the text report lists the worst confusions instead of the matrix.
    public static let largestPrintedMatrix = 20
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
