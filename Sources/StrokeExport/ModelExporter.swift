import Foundation
import StrokeKit
import StrokeModelFile
import StrokeSupport

/// Exports a StrokeKit model file to ONNX or Core ML.
///
///     let exporter = try ModelExporter(contentsOf: modelURL)
///     try exporter.write(.onnx, to: URL(fileURLWithPath: "shapes.onnx"))
///
/// The model is read and checked exactly as `ShapeClassifier` reads it (errors are
/// `ClassifierError`s naming the file). Weights are always exported as float32: a model
/// file stored as float16 is widened exactly and an int8 one dequantized (level × channel
/// scale, in float32) exactly as StrokeKit loads it, so the export computes what StrokeKit does.
public struct ModelExporter {
    /// The model being exported.
    public let model: TrainedModel
    /// Names the model file in errors and in the export's metadata.
    public let source: String
    /// The narrowest dtype the model file stores weights in: `.int8` when some are int8,
    /// else `.float16` when some are float16, else `.float32`.
    public let storedPrecision: TensorDType
    /// The SHA-256 of the model file's tensor data, when the file carried one.
    public let sourceChecksum: String?
    /// The reject rule the model's metadata describes.
    public let rejectRule: RejectRule

    /// Reads and checks the model file at `url`.
    public init(contentsOf url: URL) throws {
        let file: SafeTensorsFile
        do {
            file = try SafeTensorsFile.read(contentsOf: url, requireChecksum: true)
        } catch let error as ModelFileError {
            throw ClassifierError.modelFile(error)
        }
        try self.init(model: TrainedModel.load(file: file), source: file.source,
                      storedPrecision: [TensorDType.int8, .float16].first { file.storedDTypes.values.contains($0) } ?? .float32,
                      sourceChecksum: file.verifiedChecksum)
    }

    /// Exports a model held in memory; `source` names it in errors and metadata.
    public init(model: TrainedModel, source: String, storedPrecision: TensorDType = .float32, sourceChecksum: String? = nil) throws {
        self.model = model
        self.source = source
        self.storedPrecision = storedPrecision
        self.sourceChecksum = sourceChecksum
        self.rejectRule = try RejectRule(metadata: model.metadata, source: source)
    }

    /// The exported model file's bytes. Throws `ExportError.unsupportedLayer` for a layer
    /// with no mapping (none of the layers `--arch` builds), `.unsupportedInputChannels` for
    /// a model of several input channels.
    public func encoded(as format: ExportFormat) throws -> [UInt8] {
        guard model.network.inputChannels == 1 else {
            throw ExportError.unsupportedInputChannels(source: source, channels: model.network.inputChannels)
        }
        let graph = try ExportGraph(network: model.network, source: source)
        let metadata = ExportMetadata(exporter: self)
        switch format {
        case .onnx:
            return try ONNXExport.model(of: self, graph: graph, metadata: metadata).serializedBytes()
        case .coreml:
            return try CoreMLExport.model(of: self, graph: graph, metadata: metadata).serializedBytes()
        }
    }

    /// Writes the export atomically to `url` (an existing file is replaced only once the
    /// new one is complete) and returns its size in bytes.
    @discardableResult
    public func write(_ format: ExportFormat, to url: URL) throws -> Int {
        let bytes = try encoded(as: format)
        try AtomicFile.write(bytes, to: url)   // AtomicFileError names the path
        return bytes.count
    }
}
