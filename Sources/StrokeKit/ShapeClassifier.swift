import Foundation
import StrokeImage
import StrokeModelFile
import StrokeNN
import StrokeTensor

/// Classifies drawings with a trained CNN.
///
///     let classifier = try ShapeClassifier(contentsOf: modelURL)
///     let result = try classifier.classify(image)      // a 28x28 white-on-black GrayImage
///     if !result.isRejected { print(result.label, result.confidence) }
///
/// Thread-safe: share one classifier. Each call borrows a replica of the network's fast
/// inference path (`InferenceEngine`: its own work buffers) from a pool guarded by a lock, and returns it; the pool
/// grows to the number of concurrent callers. After a replica's first use, classifying one
/// image allocates no work buffers, only the returned `Classification`.
///
/// The label is the most probable class; `isRejected` follows the model's `RejectRule`.
///
/// NOTE: like every StrokeKit network, the classifier's runs OpenBLAS with one thread
/// per call (`Network` sets `BLAS.threadCount = 1`, process-wide, once). This network's matrix products are small
/// (at most 64x288x196 for one image): OpenBLAS 0.3.21 splits those above 2^18
/// multiply-adds over all cores, which made one image ~20 µs slower on a 2-core machine
/// (fastest of 3000 runs 127 µs vs 150 µs, interleaved) and makes concurrent callers
/// queue for its thread pool. Set `BLAS.threadCount` afterwards to override.
public final class ShapeClassifier: StrokeClassifying, @unchecked Sendable {
    /// File name of the model shipped with StrokeKit (in `Sources/StrokeKit/Resources`).
    public static let bundledModelName = "automata-shapes.safetensors"
    /// File name of the bundled label model: one handwritten character (digits, letters,
    /// `, + . { }`), trained on UNIPEN (CC BY 4.0; docs/label-model.md).
    public static let bundledLabelModelName = "unipen-labels.safetensors"
    /// Largest number of images handed to the fast path at once by the batch calls (which
    /// bounds the rasterized-stroke buffer); the fast path itself runs them in chunks of
    /// `InferenceEngine.chunkSize`, so cache use does not grow with this number.
    public static let maximumBatch = 16

    /// The model file's metadata.
    public let metadata: ModelMetadata
    /// When a classification is rejected, from the metadata.
    public let rejectRule: RejectRule
    /// Class labels in output order.
    public var classes: [String] { metadata.classes }
    /// How strokes become this model's input (its file's `strokekit.input.framing`):
    /// `.aspectFit` for the shape models, a reference height for the label model.
    public let framing: InputFraming

    /// Holds the parameters; never run, only copied into replicas.
    private let prototype: Network
    private let lock = NSLock()
    // Replicas that run one image at a time keep batch size 1, so they never reallocate.
    private var singleImageReplicas: [Replica] = []
    private var batchReplicas: [Replica] = []

    /// Loads the model file at `url` (see `TrainedModel.load(contentsOf:)` for the checks).
    public convenience init(contentsOf url: URL) throws {
        self.init(model: try TrainedModel.load(contentsOf: url))
    }

    /// A classifier running a copy of `model`'s parameters: later changes to
    /// `model.network` do not affect it.
    public init(model: TrainedModel) {
        metadata = model.metadata
        framing = model.framing
        // TrainedModel.init checked the rule, so this cannot fail.
        rejectRule = try! RejectRule(metadata: model.metadata, source: "<memory>")
        prototype = Self.makeNetwork(like: model.network)
        prototype.copyParameters(from: model.network)
    }

    /// The model shipped with StrokeKit, trained on the automata-shapes dataset
    /// (`arrow`, `circle`, `cycle`, and the reject class `none`). Loading reads and checks
    /// the file: call once and share. Throws `ClassifierError.bundledModelMissing` when this
    /// build carries no model.
    public static func bundledDefault() throws -> ShapeClassifier {
        try ShapeClassifier(contentsOf: bundledModelURL())
    }

    /// The label model shipped with StrokeKit: one handwritten character among the 67
    /// classes `0`-`9`, `a`-`z`, `A`-`Z`, `,` `+` `.` `{` `}`. Give the height of the
    /// character's line (`classify(_:frame:)`): within it, size tells `.` from a scribble and
    /// `o` from `O`; alone (`classify(_: [Stroke])`), only the shape speaks. Trained on UNIPEN, whose citation and licence (CC BY 4.0) its
    /// metadata carries. Call once and share.
    public static func bundledLabels() throws -> ShapeClassifier {
        try ShapeClassifier(contentsOf: bundledModelURL(named: bundledLabelModelName))
    }

    /// Where a bundled model file is (a SwiftPM resource of this module); by default the shape model.
    public static func bundledModelURL(named fileName: String = bundledModelName) throws -> URL {
        // `.copy("Resources")` keeps the folder inside the bundle.
        let name = String(fileName.dropLast(".safetensors".count))
        guard let url = Bundle.module.url(forResource: name, withExtension: "safetensors", subdirectory: "Resources") else {
            throw ClassifierError.bundledModelMissing(resource: "Resources/\(fileName)")
        }
        return url
    }

    // MARK: - Classifying

    /// Classifies one image of `ModelInput.side`² pixels, white ink on black (for a model of
    /// several input channels, their planes stacked top to bottom, as `Rasterizer` draws the
    /// model's framing). Throws `ClassifierError.imageSizeMismatch` (or
    /// `.stackedImageSizeMismatch`) for any other size: aspect-fit the drawing first.
    public func classify(_ image: GrayImage) throws -> Classification {
        try checkSize(of: image, index: nil)
        return withReplica(forSingleImages: true) { replica in
            replica.engine.forward(batch: 1) { ModelInput.fill(image, into: $0) }
            return replica.classification(ofRow: 0, rule: rejectRule, classes: classes)
        }
    }

    /// Classifies many images, running the network on up to `maximumBatch` at a time.
    /// Same results as classifying each image alone, up to float rounding.
    public func classify(images: [GrayImage]) throws -> [Classification] {
        for (index, image) in images.enumerated() { try checkSize(of: image, index: index) }
        return runBatches(count: images.count) { replica, range in
            let imageSize = replica.imageSize
            replica.engine.forward(batch: range.count) { buffer in
                for (offset, index) in range.enumerated() { ModelInput.fill(images[index], into: buffer + offset * imageSize) }
            }
        }
    }

    /// Classifies a drawing of one or more strokes: rasterizes them the way the training
    /// images were made, then classifies the image. Bit for bit the same as
    /// `classify(modelRasterizer.rasterize(strokes, framing: framing, frame: nil))`: both go
    /// through `ModelInput`. For a model framed by a reference height (the label model) the
    /// drawing stands alone, without a frame: aspect-fit.
    public func classify(_ strokes: [Stroke]) throws -> Classification {
        try classify(strokes, frame: nil)
    }

    /// Classifies one handwritten character drawn within `frame`, the height of its line of
    /// writing (`CharacterFrame(lineTop:lineBottom:)`): a model whose file records a
    /// reference-height framing sees the character's size relative to the line, so a `.`
    /// stays small and `o` smaller than `O`. A model framed by aspect-fit (the shape models,
    /// and older files) ignores the frame. With `frame == nil`, or a frame as tall as the
    /// drawing (its own box: a character alone on its line, or the one that spans it), the
    /// drawing stands alone: its size is unknown, and it is aspect-fit.
    public func classify(_ strokes: [Stroke], frame: CharacterFrame?) throws -> Classification {
        withReplica(forSingleImages: true) { replica in
            let pixels = replica.strokePixels(0)
            modelRasterizer.rasterize(strokes, framing: framing, frame: frame, into: pixels)
            replica.engine.forward(batch: 1) { ModelInput.fill(pixels: UnsafeBufferPointer(pixels), into: $0) }
            return replica.classification(ofRow: 0, rule: rejectRule, classes: classes)
        }
    }

    /// Classifies many drawings, each made of one or more strokes (each alone, without a frame).
    public func classify(strokeBatch drawings: [[Stroke]]) throws -> [Classification] {
        try classify(strokeBatch: drawings, frames: nil)
    }

    /// Classifies many drawings, drawing `i` within `frames[i]` (see `classify(_:frame:)`);
    /// `frames == nil` leaves each alone. `frames` must have one entry per drawing.
    public func classify(strokeBatch drawings: [[Stroke]], frames: [CharacterFrame?]?) throws -> [Classification] {
        precondition(frames == nil || frames!.count == drawings.count,
                     "\(frames?.count ?? 0) frames given for \(drawings.count) drawings")
        return runBatches(count: drawings.count) { replica, range in
            let imageSize = replica.imageSize
            for (offset, index) in range.enumerated() {
                modelRasterizer.rasterize(drawings[index], framing: framing, frame: frames?[index] ?? nil,
                                          into: replica.strokePixels(offset))
            }
            replica.engine.forward(batch: range.count) { buffer in
                for offset in 0..<range.count {
                    ModelInput.fill(pixels: UnsafeBufferPointer(replica.strokePixels(offset)), into: buffer + offset * imageSize)
                }
            }
        }
    }

    // MARK: - Implementation

    private func checkSize(of image: GrayImage, index: Int?) throws {
        // A model of several channels takes their planes stacked top to bottom (`Rasterizer`).
        let channels = prototype.inputChannels
        guard image.width == ModelInput.side && image.height == ModelInput.side * channels else {
            if channels == 1 {
                throw ClassifierError.imageSizeMismatch(
                    index: index, width: image.width, height: image.height, expectedSide: ModelInput.side)
            }
            throw ClassifierError.stackedImageSizeMismatch(
                index: index, width: image.width, height: image.height, side: ModelInput.side, channels: channels)
        }
    }

    /// Splits `count` examples into batches of at most `maximumBatch`; `forward` runs the
    /// network on one batch (the given index range), then its rows are classified.
    private func runBatches(
        count: Int, forward: (Replica, Range<Int>) throws -> Void
    ) rethrows -> [Classification] {
        guard count > 0 else { return [] }
        var results: [Classification] = []
        results.reserveCapacity(count)
        try withReplica(forSingleImages: false) { replica in
            for start in stride(from: 0, to: count, by: Self.maximumBatch) {
                let range = start..<min(start + Self.maximumBatch, count)
                try forward(replica, range)
                for row in 0..<range.count {
                    results.append(replica.classification(ofRow: row, rule: rejectRule, classes: classes))
                }
            }
        }
        return results
    }

    /// Runs `body` with a replica taken from the pool (or made), and puts it back.
    private func withReplica<Result>(forSingleImages single: Bool, _ body: (Replica) throws -> Result) rethrows -> Result {
        lock.lock()
        let pooled = single ? singleImageReplicas.popLast() : batchReplicas.popLast()
        lock.unlock()
        let replica = pooled ?? makeReplica()
        defer {
            lock.lock()
            if single { singleImageReplicas.append(replica) } else { batchReplicas.append(replica) }
            lock.unlock()
        }
        return try body(replica)
    }

    /// A fresh fast-path engine planned from the prototype's parameters. Reading the
    /// prototype concurrently is safe: nothing writes it after `init`.
    private func makeReplica() -> Replica {
        Replica(engine: InferenceEngine(network: prototype))
    }

    private static func makeNetwork(like network: Network) -> Network {
        do {
            return try Network(architecture: network.architecture, classCount: network.classCount,
                               inputChannels: network.inputChannels, inputHeight: network.inputHeight,
                               inputWidth: network.inputWidth)
        } catch {
            preconditionFailure("rebuilding an existing network cannot fail: \(error)")
        }
    }
}

/// One inference engine (the network's fast path, `InferenceEngine`) and its scratch
/// buffers, used by one call at a time.
private final class Replica {
    let engine: InferenceEngine
    /// Softmax of one row of logits.
    private let probabilities: UnsafeMutableBufferPointer<Float>
    /// Rasterized strokes, up to `maximumBatch` 8-bit images; allocated on first use.
    private var strokeImages: UnsafeMutableBufferPointer<UInt8>?

    init(engine: InferenceEngine) {
        self.engine = engine
        probabilities = .allocate(capacity: engine.classCount)
        probabilities.initialize(repeating: 0)
    }

    deinit {
        probabilities.deallocate()
        strokeImages?.deallocate()
    }

    /// Bytes of one input image: a `ModelInput.side`² plane per input channel.
    var imageSize: Int { engine.inputChannels * ModelInput.side * ModelInput.side }

    /// The pixels of image `index` in a stroke batch.
    func strokePixels(_ index: Int) -> UnsafeMutableBufferPointer<UInt8> {
        let imageSize = self.imageSize
        if strokeImages == nil {
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: ShapeClassifier.maximumBatch * imageSize)
            buffer.initialize(repeating: 0)
            strokeImages = buffer
        }
        return UnsafeMutableBufferPointer(rebasing: strokeImages![index * imageSize ..< (index + 1) * imageSize])
    }

    /// Softmax of the last forward pass's logits in `row`, then the reject rule.
    func classification(ofRow row: Int, rule: RejectRule, classes: [String]) -> Classification {
        let classCount = engine.classCount
        engine.withLogits { logits in
            Softmax.probabilities(
                of: UnsafeBufferPointer(rebasing: logits[(row * classCount)..<((row + 1) * classCount)]),
                into: probabilities)
        }
        return rule.classification(probabilities: UnsafeBufferPointer(probabilities), classes: classes)
    }
}
