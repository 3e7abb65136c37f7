import StrokeData
import StrokeImage
import StrokeTensor
import StrokeSupport

/// Synthetic training and test images: strokes from `StrokeSynthesizer`, rendered by the
/// same `Rasterizer` the inference library uses, with the pen width varied around the
/// dataset's so the model does not learn one exact line width.
public enum SyntheticExamples {
    /// The class that holds non-shapes when a model is trained with a reject class.
    public static let rejectClass = "none"

    /// Pen widths (output pixels) drawn uniformly for each synthetic image: around the
    /// dataset's measured ~1.1 px, wider and thinner, as other devices and pens give.
    public static let penPixels: ClosedRange<Double> = 0.8...1.8

    /// `perClass` synthetic drawings of each class in `classes` that the generator knows
    /// (arrow, circle, cycle; others are skipped), plus `negatives` non-shapes labelled
    /// `rejectClass` when `classes` contains it. Labels are indices into `classes`.
    public static func make(classes: [String], perClass: Int, negatives: Int, seed: UInt64) -> LabeledExamples {
        var synthesizer = StrokeSynthesizer(seed: seed)
        var penGenerator = SeededGenerator.stream(seed: seed, 0x5EED)
        var examples = LabeledExamples(images: [], labels: [], sources: [])
        func add(_ strokes: [Stroke], label: Int, source: String) {
            let pen = penPixels.lowerBound + penGenerator.nextUnit() * (penPixels.upperBound - penPixels.lowerBound)
            examples.images.append(Rasterizer(pen: .pixels(pen)).rasterize(strokes))
            examples.labels.append(label)
            examples.sources.append(source)
        }
        for (label, name) in classes.enumerated() {
            guard let kind = StrokeSynthesizer.ShapeKind(rawValue: name) else { continue }
            for index in 0..<perClass {
                add(synthesizer.shape(kind), label: label, source: "synthetic-\(name)-\(index)")
            }
        }
        if let rejectLabel = classes.firstIndex(of: rejectClass) {
            for index in 0..<negatives {
                let (kind, strokes) = synthesizer.randomNonShape()
                add(strokes, label: rejectLabel, source: "synthetic-\(kind.rawValue)-\(index)")
            }
        }
        return examples
    }
}
