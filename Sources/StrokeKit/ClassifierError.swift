import StrokeModelFile

/// Why a model could not be loaded, saved or run.
///
/// Every case that involves a file names it (`source`: a path, or a description such as
/// "<memory>"); messages end with a hint when the fix is known.
public enum ClassifierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The model file itself is unreadable or malformed (layout, tensors, metadata, checksum),
    /// or could not be written.
    case modelFile(ModelFileError)
    /// `strokekit.architecture` does not parse, or does not build a network for this input.
    case invalidArchitecture(source: String, spec: String, problem: String)
    /// The file's network expects input other than what `ModelInput` produces
    /// (28x28, 1 channel, white ink on black, scaled by 1/255).
    case unsupportedInput(source: String, found: String, expected: String)
    /// `ShapeClassifier.bundledDefault()` found no model among the library's resources.
    case bundledModelMissing(resource: String)
    /// An image given to `classify` is not the model's input size. `index` is its position
    /// in a batch call.
    case imageSizeMismatch(index: Int?, width: Int, height: Int, expectedSide: Int)
    /// An image given to a model of several input channels is not their planes stacked top
    /// to bottom (`side` wide, `side * channels` tall).
    case stackedImageSizeMismatch(index: Int?, width: Int, height: Int, side: Int, channels: Int)

    /// The hint every malformed-model message ends with.
    static let retrainHint = "re-train or re-export the model with `strokekit train`"

    public var description: String {
        switch self {
        case let .modelFile(error):
            return error.needsRetrainHint ? "\(error.description); \(Self.retrainHint)" : error.description
        case let .invalidArchitecture(source, spec, problem):
            return "\(source): invalid architecture '\(spec)': \(problem); \(Self.retrainHint)"
        case let .unsupportedInput(source, found, expected):
            return "\(source): the model expects input \(found), but StrokeKit feeds \(expected); \(Self.retrainHint)"
        case let .bundledModelMissing(resource):
            return "the bundled default model is missing: \(resource) is not among StrokeKit's resources; "
                + "train one with `strokekit train` and load it with `ShapeClassifier(contentsOf:)`"
        case let .imageSizeMismatch(index, width, height, side):
            let which = index.map { "image \($0)" } ?? "the image"
            return "\(which) is \(width)x\(height), the model needs \(side)x\(side); "
                + "aspect-fit the drawing to \(side)x\(side) first, as the training images were"
        case let .stackedImageSizeMismatch(index, width, height, side, channels):
            let which = index.map { "image \($0)" } ?? "the image"
            return "\(which) is \(width)x\(height), the model reads \(channels) channels of \(side)x\(side) stacked top to "
                + "bottom (\(side)x\(side * channels)): rasterize the strokes with the model's framing, or classify the strokes"
        }
    }
}

extension ModelFileError {
    /// True when the message says what is wrong with the file but not how to get a good one.
    /// File-system errors, and cases whose message already carries a hint, get none.
    var needsRetrainHint: Bool {
        switch self {
        case .checksumMismatch, .checksumMissing, .unsupportedFormatVersion, .cannotRead,
             .nonFiniteValue, .float16Overflow:
            return false
        default:
            return true
        }
    }
}
