import StrokeData
import StrokeImage

/// Labelled 28x28 images held in memory: what the trainer and evaluator consume.
/// Datasets, stroke corpora and synthetic sets all turn into this.
public struct LabeledExamples: Sendable {
    public var images: [GrayImage]
    /// Class index of each image.
    public var labels: [Int]
    /// Where each image came from (file path or stroke key), for reports.
    public var sources: [String]

    public init(images: [GrayImage], labels: [Int], sources: [String]) {
        precondition(images.count == labels.count && labels.count == sources.count,
                     "images, labels and sources must have the same count")
        self.images = images
        self.labels = labels
        self.sources = sources
    }

    public var count: Int { images.count }

    /// The examples at `indices`, in that order.
    public func subset(_ indices: some Sequence<Int>) -> LabeledExamples {
        var result = LabeledExamples(images: [], labels: [], sources: [])
        for index in indices {
            result.images.append(images[index])
            result.labels.append(labels[index])
            result.sources.append(sources[index])
        }
        return result
    }

    /// These examples followed by `other`'s.
    public func appending(_ other: LabeledExamples) -> LabeledExamples {
        LabeledExamples(images: images + other.images, labels: labels + other.labels, sources: sources + other.sources)
    }
}

extension LabeledImageDataset {
    /// The samples at `indices`, in that order, as trainer and evaluator input.
    public func examples(_ indices: [Int]) -> LabeledExamples {
        LabeledExamples(
            images: indices.map { samples[$0].image },
            labels: indices.map { samples[$0].classIndex },
            sources: indices.map { samples[$0].url.path })
    }

    /// Every sample, in order.
    public var allExamples: LabeledExamples { examples(Array(samples.indices)) }
}
